import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormFooter } from '../../../components/FormFooter.tsx';
import { parseNumber, type PriceRow } from './price-math.ts';

interface Props {
  opened: boolean;
  names: string[];
  onClose: () => void;
  onApply: (rows: PriceRow[]) => void;
}

/** Sets one price (or one ratio pair) on every selected model. */
export function BatchSetModal({ opened, names, onClose, onApply }: Props) {
  const { t } = useLingui();
  const [mode, setMode] = useState<'ratio' | 'price'>('ratio');
  const [price, setPrice] = useState('');
  const [ratio, setRatio] = useState('');
  const [completion, setCompletion] = useState('');
  const [error, setError] = useState<string | null>(null);

  const apply = () => {
    if (mode === 'price') {
      if (price.trim() === '') return setError(t`Please enter a fill value`);
      const p = parseNumber(price);
      if (p === undefined || p < 0) return setError(t`Please enter a valid number`);
      onApply(names.map((name) => ({ name, price: p })));
    } else {
      if (ratio.trim() === '' || completion.trim() === '')
        return setError(t`Please enter the model ratio and completion ratio`);
      const r = parseNumber(ratio);
      const c = parseNumber(completion);
      if (r === undefined || c === undefined || r < 0 || c < 0) return setError(t`Please enter a valid number`);
      onApply(names.map((name) => ({ name, ratio: r, completionRatio: c })));
    }
    setError(null);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t`Batch set ${names.length} models`}>
      <Stack>
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'ratio' | 'price')}
          data={[
            { value: 'ratio', label: t`Per token` },
            { value: 'price', label: t`Fixed price per call` },
          ]}
        />
        {mode === 'price' ? (
          <TextInput label={t`Price per call (USD)`} value={price} onChange={(e) => setPrice(e.currentTarget.value)} />
        ) : (
          <SimpleGrid cols={2}>
            <TextInput label={t`Model ratio`} value={ratio} onChange={(e) => setRatio(e.currentTarget.value)} />
            <TextInput
              label={t`Completion ratio`}
              value={completion}
              onChange={(e) => setCompletion(e.currentTarget.value)}
            />
          </SimpleGrid>
        )}
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <FormFooter onCancel={onClose} label={<Trans>Apply</Trans>} onConfirm={apply} />
      </Stack>
    </Modal>
  );
}
