import { Avatar, type AvatarProps } from '@mantine/core';

/**
 * A model's or vendor's icon as the marketplace stores it: a picture URL (https:// or a site path)
 * or an icon name from new-api's icon set (`OpenAI`, `Claude.Color`), which Switchyard does not ship.
 * A URL is shown as an image; a name (or nothing) as the initials of `fallback`. The text only ever
 * reaches an `src` attribute or a text node, never HTML; other URL schemes (javascript:, data:) are
 * not loaded.
 */
export function MarketIcon({ icon, fallback, ...rest }: { icon?: string; fallback: string } & AvatarProps) {
  const src = icon && /^(https:\/\/|\/(?!\/))/i.test(icon.trim()) ? icon.trim() : undefined;
  const label = (icon && !src ? icon.split('.')[0] : fallback) || '?';
  return <Avatar src={src} alt={fallback} radius="sm" size={rest.size ?? 24} color="initials" name={label} {...rest} />;
}
