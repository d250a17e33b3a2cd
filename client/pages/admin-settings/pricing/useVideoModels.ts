import { useCallback, useMemo } from 'react';
import { isVideoModel } from '../../../../shared/video-models.ts';
import { trpc } from '../../../trpc.ts';
import type { OptionsForm } from '../form/useOptionsForm.ts';
import { mapsFromRows, parseVideoUnits, type PriceRow, videoUnitsText } from './price-math.ts';

/**
 * Video models in the price editor (issue 40): those a video-only channel type serves or whose name says
 * video (the server's list), plus the ones VideoPriceUnit names; their fixed price is per second or per video.
 */
export function useVideoModels(form: OptionsForm) {
  const units = useMemo(() => parseVideoUnits(form.values.VideoPriceUnit), [form.values.VideoPriceUnit]);
  const served = trpc.pricing.videoModels.useQuery(undefined, { staleTime: 60_000 });
  const servedSet = useMemo(() => new Set(served.data ?? []), [served.data]);
  const isVideo = useCallback((name: string) => isVideoModel(name, servedSet, units), [servedSet, units]);
  /** Stages the table's rows (`before` -> `next`) into the four price options, VideoPriceUnit included. */
  const write = (before: PriceRow[], next: PriceRow[]) =>
    form.setMany({ ...mapsFromRows(next), VideoPriceUnit: videoUnitsText(before, next, form.values.VideoPriceUnit) });
  return { units, isVideo, write };
}
