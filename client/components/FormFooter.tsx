import { Trans } from '@lingui/react/macro';
import { Button, Group, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './FormFooter.module.css';

export interface FormFooterProps {
  onCancel: () => void;
  /** The primary button's text, "Save" when not given; `null` leaves only Cancel. */
  label?: ReactNode;
  /** Runs the primary action; without it the primary button submits the form around the footer. */
  onConfirm?: () => void;
  loading?: boolean;
  disabled?: boolean;
  /** A destructive action (delete, disable): the primary button is red. */
  danger?: boolean;
  /** Shown on the left (e.g. a Reset button); Cancel and the primary button stay on the right. */
  left?: ReactNode;
  /** In a drawer: stays in view at the bottom while the form scrolls under it. */
  sticky?: boolean;
  /** data-testid of the primary button. */
  testId?: string;
  mt?: MantineSpacing;
}

/** The Cancel + primary button row that ends every drawer and dialog form of the console. */
export function FormFooter({
  onCancel,
  label,
  onConfirm,
  loading,
  disabled,
  danger,
  left,
  sticky,
  testId,
  mt,
}: FormFooterProps) {
  const buttons = (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </Button>
      {label !== null && (
        <Button
          type={onConfirm ? 'button' : 'submit'}
          onClick={onConfirm}
          color={danger ? 'red' : undefined}
          loading={loading}
          disabled={disabled}
          data-testid={testId}
        >
          {label ?? <Trans>Save</Trans>}
        </Button>
      )}
    </Group>
  );
  return (
    <Group
      justify={left ? 'space-between' : 'flex-end'}
      mt={sticky ? undefined : mt}
      className={sticky ? classes.sticky : undefined}
    >
      {left}
      {buttons}
    </Group>
  );
}
