import { ChannelType } from '../../../../shared/channel-types.ts';
import { imagesOnly } from '../../images/upstream.ts';
import { defaultModelsQuery } from '../shared/channel-query.ts';
import type { ProviderAdapter } from '../types.ts';
import { mapReplicateError } from './errors.ts';
import { replicateImages } from './images.ts';

/*
 * Replicate (channel type 56) only makes pictures through the relay (images.ts). Its API lists every
 * public model of every owner (tens of thousands), nothing a channel could offer: fetching models
 * answers the type's usual image models instead, as for the video types without a list. It has no
 * balance endpoint (billing is per second of GPU time on replicate.com).
 */
export const replicateAdapter: ProviderAdapter = imagesOnly(
  replicateImages,
  (status, text) => mapReplicateError(status, text) ?? { status, message: text.slice(0, 500) },
  { models: defaultModelsQuery(ChannelType.Replicate) },
);
