import { useLingui } from '@lingui/react/macro';
import { Group, NavLink } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconConfetti } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import classes from './layout.module.css';

/** 1 January in the visitor's own time zone. */
export const isNewYearsDay = (d: Date) => d.getMonth() === 0 && d.getDate() === 1;

const RELOAD_AFTER_MS = 3000;

/**
 * The console spec's New-Year-day easter egg (top bar §2.14): on 1 January a greeting
 * item appears; choosing it wishes a happy new year and reloads the page a little later.
 */
export function NewYearEgg({ stacked = false, onNavigate }: { stacked?: boolean; onNavigate?: () => void }) {
  const { t } = useLingui();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  if (!isNewYearsDay(new Date())) return null;

  const celebrate = () => {
    onNavigate?.();
    notifications.show({
      title: t`Happy New Year!`,
      icon: <IconConfetti size={18} />,
      message: t`Here's to a great year. The page reloads in a moment.`,
      color: 'red',
      autoClose: RELOAD_AFTER_MS,
    });
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => window.location.reload(), RELOAD_AFTER_MS);
  };

  // An icon, not an emoji: it renders the same on machines without a colour emoji font.
  const label = t`Happy New Year`;
  return stacked ? (
    <NavLink
      component="button"
      label={label}
      leftSection={<IconConfetti size={16} />}
      onClick={celebrate}
      className={classes.navLink}
    />
  ) : (
    <button type="button" className={classes.topLink} onClick={celebrate} data-testid="new-year">
      <Group gap={6} wrap="nowrap" component="span">
        <IconConfetti size={16} />
        {label}
      </Group>
    </button>
  );
}
