import { useLingui } from '@lingui/react/macro';
import { Badge, Image, ThemeIcon } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useStatus } from '../lib/status-context.tsx';
import classes from './layout.module.css';

/** Logo, system name and the usage-mode badge (self-use purple, demo blue). */
export function Brand({ compact }: { compact?: boolean }) {
  const { t } = useLingui();
  const status = useStatus();
  const name = status.system_name || 'Switchyard';
  return (
    <Link to="/" className={classes.brand} aria-label={name}>
      {status.logo ? (
        <Image src={status.logo} alt="" w={30} h={30} radius="sm" fit="contain" />
      ) : (
        <ThemeIcon size={30} radius="md" variant="gradient" gradient={{ from: 'indigo', to: 'cyan', deg: 135 }}>
          <IconRoute size={18} />
        </ThemeIcon>
      )}
      {!compact && <span className={classes.brandName}>{name}</span>}
      {status.self_use_mode_enabled ? (
        <Badge color="violet" variant="light" size="sm" data-testid="mode-badge">
          {t`Self-use mode`}
        </Badge>
      ) : status.demo_site_enabled ? (
        <Badge color="blue" variant="light" size="sm" data-testid="mode-badge">
          {t`Demo site`}
        </Badge>
      ) : null}
    </Link>
  );
}
