import { useLingui } from '@lingui/react/macro';
import { Menu, NavLink, ScrollArea, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { isActivePath, type VisibleNavItem, type VisibleNavSection } from './nav.ts';
import type { Submenus } from './useSubmenus.ts';
import classes from './layout.module.css';

interface SidebarMenuProps {
  sections: VisibleNavSection[];
  submenus: Submenus;
  collapsed: boolean;
  onNavigate?: () => void;
}

interface ItemProps {
  item: VisibleNavItem;
  label: string;
  pathname: string;
  collapsed: boolean;
  onNavigate?: () => void;
}

function PlainItem({ item, label, pathname, collapsed, onNavigate }: ItemProps) {
  const link = (
    <NavLink
      component={Link}
      to={item.path}
      onClick={onNavigate}
      label={collapsed ? undefined : label}
      aria-label={label}
      leftSection={<item.icon size={18} stroke={1.6} />}
      active={isActivePath(pathname, item.path)}
      className={classes.navLink}
      data-collapsed={collapsed || undefined}
      variant="light"
    />
  );
  return collapsed ? (
    <Tooltip label={label} position="right" withArrow>
      {link}
    </Tooltip>
  ) : (
    link
  );
}

/** A submenu (Chat): indented entries under a toggle; in the 60 px sidebar, a menu beside the icon. */
function SubmenuItem({ item, label, pathname, collapsed, onNavigate, submenus }: ItemProps & { submenus: Submenus }) {
  const entries = item.entries ?? [];
  const icon = <item.icon size={18} stroke={1.6} />;
  if (collapsed)
    return (
      <Menu position="right-start" trigger="click-hover" withArrow offset={6} shadow="md">
        <Menu.Target>
          <NavLink
            component="button"
            type="button"
            aria-label={label}
            leftSection={icon}
            active={isActivePath(pathname, item.path)}
            className={classes.navLink}
            data-collapsed
            variant="light"
          />
        </Menu.Target>
        <Menu.Dropdown data-testid={`submenu-${item.key}`}>
          <Menu.Label>{label}</Menu.Label>
          {entries.map((e) => {
            const active = isActivePath(pathname, e.path);
            return (
              <Menu.Item
                key={e.key}
                component={Link}
                to={e.path}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                className={classes.menuEntry}
              >
                {e.label}
              </Menu.Item>
            );
          })}
        </Menu.Dropdown>
      </Menu>
    );
  const open = submenus.open.has(item.key);
  return (
    <NavLink
      component="button"
      type="button"
      label={label}
      leftSection={icon}
      opened={open}
      onChange={() => submenus.toggle(item.key)}
      aria-expanded={open}
      className={classes.navLink}
      childrenOffset={28}
      variant="light"
    >
      <Stack gap={2} pt={2} data-testid={`submenu-${item.key}`}>
        {entries.map((e) => (
          <NavLink
            key={e.key}
            component={Link}
            to={e.path}
            onClick={onNavigate}
            label={e.label}
            title={e.label}
            active={isActivePath(pathname, e.path)}
            className={classes.navLink}
            variant="light"
          />
        ))}
      </Stack>
    </NavLink>
  );
}

/** The sidebar's sections and links; used in the desktop navbar and the mobile drawer. */
export function SidebarMenu({ sections, submenus, collapsed, onNavigate }: SidebarMenuProps) {
  const { i18n } = useLingui();
  const { pathname } = useLocation();
  return (
    <Stack gap={4}>
      {sections.map((section) => (
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
            const props = { item, label: i18n._(item.label), pathname, collapsed, onNavigate };
            return item.entries ? (
              <SubmenuItem key={item.key} {...props} submenus={submenus} />
            ) : (
              <PlainItem key={item.key} {...props} />
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}

interface SidebarProps {
  sections: VisibleNavSection[];
  submenus: Submenus;
  collapsed: boolean;
  onToggle: () => void;
}

/** The desktop sidebar with its collapse toggle at the bottom. */
export function Sidebar({ sections, submenus, collapsed, onToggle }: SidebarProps) {
  const { t } = useLingui();
  const label = collapsed ? t`Expand sidebar` : t`Collapse sidebar`;
  return (
    <>
      <ScrollArea style={{ flex: 1 }} px={collapsed ? 8 : 4} pt="sm" type="scroll">
        <SidebarMenu sections={sections} submenus={submenus} collapsed={collapsed} />
      </ScrollArea>
      <UnstyledButton className={classes.collapseButton} onClick={onToggle} aria-label={label} title={label}>
        {collapsed ? <IconLayoutSidebarLeftExpand size={18} /> : <IconLayoutSidebarLeftCollapse size={18} />}
        {!collapsed && <Text size="sm">{label}</Text>}
      </UnstyledButton>
    </>
  );
}
