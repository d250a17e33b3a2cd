import { useLingui } from '@lingui/react/macro';
import { NavLink, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useStatus } from '../lib/status-context.tsx';
import { useStoredUser } from '../lib/user.ts';
import { type NavItem, visibleSidebar } from './nav.ts';
import classes from './layout.module.css';

interface SidebarMenuProps {
  collapsed: boolean;
  onNavigate?: () => void;
}

function isActive(pathname: string, item: NavItem) {
  return pathname === item.path || pathname.startsWith(`${item.path}/`);
}

/** The sidebar's sections and links; used in the desktop navbar and the mobile drawer. */
export function SidebarMenu({ collapsed, onNavigate }: SidebarMenuProps) {
  const { i18n } = useLingui();
  const status = useStatus();
  const user = useStoredUser();
  const { pathname } = useLocation();
  return (
    <Stack gap={4}>
      {visibleSidebar({ status, user }).map((section) => (
        <Stack key={section.key} gap={2} mb={6} data-section={section.key}>
          {section.label &&
            (collapsed ? (
              <div className={classes.sectionRule} />
            ) : (
              <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt={6} pb={2}>
                {i18n._(section.label)}
              </Text>
            ))}
          {section.items.map((item) => {
            const label = i18n._(item.label);
            const link = (
              <NavLink
                key={item.key}
                component={Link}
                to={item.path}
                onClick={onNavigate}
                label={collapsed ? undefined : label}
                aria-label={label}
                leftSection={<item.icon size={18} stroke={1.6} />}
                active={isActive(pathname, item)}
                className={classes.navLink}
                data-collapsed={collapsed || undefined}
                variant="light"
              />
            );
            return collapsed ? (
              <Tooltip key={item.key} label={label} position="right" withArrow>
                {link}
              </Tooltip>
            ) : (
              link
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}

/** The desktop sidebar with its collapse toggle at the bottom. */
export function Sidebar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useLingui();
  const label = collapsed ? t`Expand sidebar` : t`Collapse sidebar`;
  return (
    <>
      <ScrollArea style={{ flex: 1 }} px={collapsed ? 8 : 4} pt="sm" type="scroll">
        <SidebarMenu collapsed={collapsed} />
      </ScrollArea>
      <UnstyledButton className={classes.collapseButton} onClick={onToggle} aria-label={label} title={label}>
        {collapsed ? <IconLayoutSidebarLeftExpand size={18} /> : <IconLayoutSidebarLeftCollapse size={18} />}
        {!collapsed && <Text size="sm">{label}</Text>}
      </UnstyledButton>
    </>
  );
}
