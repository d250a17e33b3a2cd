import { Trans, useLingui } from '@lingui/react/macro';
import { Input, Modal, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { isImageModel } from '../../../../shared/image-models.ts';
import { FormFooter } from '../../../components/FormFooter.tsx';
import {
  completionRatioFromPrices,
  outputPrice,
  parseNumber,
  type PriceRow,
  pricePerMillion,
  ratioFromPrice,
  type VideoUnit,
} from './price-math.ts';

interface Props {
  opened: boolean;
  /** The row being edited; undefined (or a bare name) to add a model. */
  row?: PriceRow;
  existingNames: string[];
  /** Video models get a "per second / per video" choice for their fixed price (issue 40). */
  isVideo?: (name: string) => boolean;
  onClose: () => void;
  onSave: (row: PriceRow, replacing?: string) => void;
}

type Mode = 'ratio' | 'price';
const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/**
 * Edits one model's price: per token (ratio, or price per 1M tokens: each fills the
 * other) or a fixed price per call, which disables the ratio inputs.
 */
export function PriceEditModal({ opened, row, existingNames, isVideo = () => false, onClose, onSave }: Props) {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<Mode>('ratio');
  const [ratio, setRatio] = useState('');
  const [inputPrice, setInputPrice] = useState('');
  const [completion, setCompletion] = useState('');
  const [outPrice, setOutPrice] = useState('');
  const [price, setPrice] = useState('');
  const [videoUnit, setVideoUnit] = useState<VideoUnit>('second');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) return;
    setName(row?.name ?? '');
    setMode(row?.price !== undefined ? 'price' : 'ratio');
    setRatio(text(row?.ratio));
    setInputPrice(row?.ratio !== undefined ? text(pricePerMillion(row.ratio)) : '');
    setCompletion(text(row?.completionRatio));
    setOutPrice(
      row?.ratio !== undefined && row.completionRatio !== undefined
        ? text(outputPrice(pricePerMillion(row.ratio), row.completionRatio))
        : '',
    );
    setPrice(text(row?.price));
    setVideoUnit(row?.videoUnit ?? 'second');
    setError(null);
  }, [opened, row]);

  const numberError = (v: string) =>
    v.trim() !== '' && parseNumber(v) === undefined ? t`Please enter a number` : null;

  const onRatio = (v: string) => {
    setRatio(v);
    const n = parseNumber(v);
    if (n !== undefined) {
      setInputPrice(text(pricePerMillion(n)));
      const c = parseNumber(completion);
      if (c !== undefined) setOutPrice(text(outputPrice(pricePerMillion(n), c)));
    }
  };
  const onInputPrice = (v: string) => {
    setInputPrice(v);
    const n = parseNumber(v);
    if (n !== undefined) setRatio(text(ratioFromPrice(n)));
  };
  const onCompletion = (v: string) => {
    setCompletion(v);
    const c = parseNumber(v);
    const p = parseNumber(inputPrice);
    if (c !== undefined && p !== undefined) setOutPrice(text(outputPrice(p, c)));
  };
  const onOutPrice = (v: string) => {
    setOutPrice(v);
    const o = parseNumber(v);
    const p = parseNumber(inputPrice);
    if (o === undefined || p === undefined) return;
    const c = completionRatioFromPrices(p, o);
    if (c === undefined) setError(t`A model price of 0 cannot be used to derive a ratio`);
    else {
      setError(null);
      setCompletion(text(c));
    }
  };

  const submit = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setError(t`Please enter the model name`);
    if (trimmed !== row?.name && existingNames.includes(trimmed)) return setError(t`Model name already exists`);
    const fields = mode === 'price' ? [price] : [ratio, completion];
    if (fields.some((f) => numberError(f))) return setError(t`Please enter a number`);
    if (mode === 'price') {
      const p = parseNumber(price);
      if (p === undefined || p < 0) return setError(t`Please enter a number`);
      onSave({ name: trimmed, price: p, ...(isVideo(trimmed) ? { videoUnit } : {}) }, row?.name);
    } else {
      const r = parseNumber(ratio);
      if (r === undefined || r < 0) return setError(t`Please enter a number`);
      const c = parseNumber(completion);
      onSave({ name: trimmed, ratio: r, completionRatio: c }, row?.name);
    }
    onClose();
  };

  const isRatio = mode === 'ratio';
  const video = isVideo(name.trim());
  const image = !video && isImageModel(name.trim());
  return (
    <Modal opened={opened} onClose={onClose} title={row?.name ? t`Edit model price` : t`Add model`} size="lg">
      <Stack>
        <TextInput label={t`Model name`} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as Mode)}
          data={[
            { value: 'ratio', label: t`Per token` },
            {
              value: 'price',
              label: video ? t`Fixed price` : image ? t`Fixed price per image` : t`Fixed price per call`,
            },
          ]}
          data-testid="price-mode"
        />
        {image && (
          // Issue 44: one model, two ways to bill a picture; the relay uses the one saved here (ModelPrice wins).
          <Text size="sm" c="dimmed" data-testid="image-billing">
            {isRatio ? (
              <Trans>
                Image model billed by tokens (ModelRatio): the tokens the upstream reports, such as Gemini's image
                output tokens and gpt-image's usage; an upstream that reports none is charged its usual tokens per
                picture.
              </Trans>
            ) : (
              <Trans>
                Image model billed per image (ModelPrice): the price × the pictures returned × the provider's
                size/quality multiplier (DALL-E 3 HD and wide sizes, gpt-image-1 quality).
              </Trans>
            )}{' '}
            <Trans>A failed generation charges nothing.</Trans>
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t`Model ratio`}
            value={ratio}
            onChange={(e) => onRatio(e.currentTarget.value)}
            disabled={!isRatio}
            error={numberError(ratio)}
            data-testid="price-ratio"
          />
          <TextInput
            label={t`Input price per 1M tokens (USD)`}
            value={inputPrice}
            onChange={(e) => onInputPrice(e.currentTarget.value)}
            disabled={!isRatio}
            error={numberError(inputPrice)}
            data-testid="price-input"
          />
          <TextInput
            label={t`Completion ratio`}
            value={completion}
            onChange={(e) => onCompletion(e.currentTarget.value)}
            disabled={!isRatio}
            error={numberError(completion)}
          />
          <TextInput
            label={t`Output price per 1M tokens (USD)`}
            value={outPrice}
            onChange={(e) => onOutPrice(e.currentTarget.value)}
            disabled={!isRatio}
            error={numberError(outPrice)}
          />
        </SimpleGrid>
        {video && !isRatio && (
          <Input.Wrapper label={t`Video billing`}>
            <SegmentedControl
              fullWidth
              value={videoUnit}
              onChange={(v) => setVideoUnit(v as VideoUnit)}
              data={[
                { value: 'second', label: t`Per second of video` },
                { value: 'job', label: t`Per video` },
              ]}
              data-testid="video-unit"
            />
          </Input.Wrapper>
        )}
        <TextInput
          label={
            image
              ? t`Price per image (USD)`
              : !video || isRatio
                ? t`Price per call (USD)`
                : videoUnit === 'job'
                  ? t`Price per video (USD)`
                  : t`Price per second of video (USD)`
          }
          description={
            video && !isRatio
              ? videoUnit === 'job'
                ? t`One price per video, whatever its length`
                : t`Charged for the seconds the upstream produced, times the size multiplier (1792x1024 and 1080p: ×1.666667)`
              : undefined
          }
          value={price}
          onChange={(e) => setPrice(e.currentTarget.value)}
          disabled={isRatio}
          error={numberError(price)}
          data-testid="price-fixed"
        />
        <Text size="xs" c="dimmed">
          <Trans>Price per 1M tokens = ratio × 2; completion ratio = output price ÷ input price.</Trans>
        </Text>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <FormFooter onCancel={onClose} label={<Trans>Apply</Trans>} onConfirm={submit} testId="price-apply" />
      </Stack>
    </Modal>
  );
}
