import { AreaChart, BarChart } from '@mantine/charts';
import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo } from 'react';
import { axisTicks, type ChartData, type Granularity } from './series.ts';

/** Up to this many slots (a week of hours) each gets a bar, so a lone busy hour is a visible bar; beyond, bars would be slivers and a stacked area reads better. */
const MAX_BARS = 200;
/** Room one x tick label needs ("11-24", "15:00"). */
const TICK_ROOM = 56;

interface Props {
  data: ChartData;
  granularity: Granularity;
  series: { name: string; label: string; color: string }[];
  /** The tooltip's value text (exact). */
  value: (v: number) => string;
  /** The y axis' tick text (defaults to `value`). */
  tick?: (v: number) => string;
  h: number;
  testId: string;
}

/**
 * A stacked chart of one metric over every slot of the range. Y ticks are whole numbers
 * (quota and counts are integers, so money ticks are exact amounts); x ticks fall on round
 * times, as many as the width holds.
 */
export function UsageChart({ data, granularity, series, value, tick, h, testId }: Props) {
  const { ref, width } = useElementSize();
  const ticks = useMemo(
    () => axisTicks(data.slots, granularity, Math.max(2, Math.floor((width || 600) / TICK_ROOM))),
    [data.slots, granularity, width],
  );
  const common = {
    h,
    data: data.rows,
    dataKey: 'slot',
    type: 'stacked' as const,
    series,
    valueFormatter: value,
    withLegend: true,
    legendProps: { verticalAlign: 'bottom' as const },
    xAxisProps: { ticks: ticks.ticks, interval: 0 as const, tickFormatter: (v: string) => ticks.text.get(v) ?? '' },
    // Steps of 1, 2, 2.5 or 5 (times a power of ten) in quota units: at 500000/$ also round in dollars.
    yAxisProps: {
      allowDecimals: false,
      niceTicks: 'snap125' as const,
      width: 'auto' as const,
      tickFormatter: tick ?? value,
    },
  };
  return (
    <Box ref={ref} data-testid={testId} data-slots={data.slots.length} data-granularity={granularity}>
      {data.slots.length <= MAX_BARS ? (
        <BarChart {...common} maxBarWidth={48} />
      ) : (
        <AreaChart {...common} withDots={false} curveType="linear" fillOpacity={0.5} />
      )}
    </Box>
  );
}
