import { useLingui } from '@lingui/react/macro';
import { Paper, Stack, Text } from '@mantine/core';
import { formatCount, quotaDisplay, renderQuota } from '../../lib/format.ts';
import { type CostCheck, plain, type TokenTerm } from './cost-formula.ts';

/**
 * How a row's charge was made, line by line in quota units, ending on the quota charged
 * (spec §9 cost formula; the integers are the relay's, so the lines add up exactly).
 */
export function CostFormula({ check }: { check: CostCheck }) {
  const { t } = useLingui();
  const { formula: f, charged, shortfall } = check;
  const inCurrency = quotaDisplay().displayInCurrency;

  const termLabel = (term: TokenTerm) => {
    const n = formatCount(term.tokens);
    const w = plain(term.weight);
    switch (term.kind) {
      case 'prompt':
        return t`${n} prompt`;
      case 'cached':
        return t`${n} cached × ${w}`;
      case 'cache_creation':
        return t`${n} cache write × ${w}`;
      case 'completion':
        return t`${n} completion × ${w}`;
      case 'audio_in':
        return t`${n} audio in × ${w}`;
      case 'audio_out':
        return t`${n} audio out × ${w}`;
    }
  };

  const lines: string[] = [];
  if (f.mode === 'ratio') {
    const weighted = plain(f.weighted);
    const exact = plain(f.exact);
    const model = plain(f.modelRatio);
    const group = plain(f.groupRatio);
    lines.push(`${f.terms.map(termLabel).join(' + ')} = ${weighted}`);
    lines.push(t`${weighted} × model ratio ${model} × group ratio ${group} = ${exact} → ${formatCount(f.quota)}`);
  } else if (f.images) {
    const price = plain(f.price);
    const perUnit = formatCount(f.quotaPerUnit);
    const group = plain(f.groupRatio);
    const count = f.images.count;
    const total = formatCount(f.quota);
    const multiplier = plain(f.images.multiplier);
    lines.push(
      f.images.multiplier === 1
        ? t`$${price} per image × ${count} images × ${perUnit} quota per $ × group ratio ${group} = ${total}`
        : t`$${price} per image × ${count} images × size/quality multiplier ${multiplier} × ${perUnit} quota per $ × group ratio ${group} = ${total}`,
    );
  } else {
    const price = plain(f.price);
    const perUnit = formatCount(f.quotaPerUnit);
    const group = plain(f.groupRatio);
    lines.push(t`$${price} per call × ${perUnit} quota per $ × group ratio ${group} = ${formatCount(f.perCall)}`);
    if (f.calls > 1) lines.push(t`${formatCount(f.perCall)} × ${f.calls} calls = ${formatCount(f.quota)}`);
  }
  const quota = formatCount(charged);
  const money = renderQuota(charged);
  lines.push(inCurrency ? t`Charged: ${quota} quota = ${money}` : t`Charged: ${quota} quota`);
  if (shortfall > 0) {
    const missing = formatCount(shortfall);
    lines.push(t`${missing} quota more were due; the balance did not cover them`);
  }
  if (!check.adds) {
    const expected = formatCount(f.quota);
    lines.push(t`The recorded prices give ${expected} quota; this row was charged otherwise`);
  }

  return (
    <Paper withBorder radius="sm" p="xs" data-testid="cost-formula">
      <Text size="xs" c="dimmed" mb={4}>
        {t`How the cost was computed (quota units)`}
      </Text>
      <Stack gap={2}>
        {lines.map((line) => (
          <Text key={line} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {line}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}
