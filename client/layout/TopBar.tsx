import { Burger, Group } from '@mantine/core';
import { useStoredUser } from '../lib/user.ts';
import { Brand } from './Brand.tsx';
import { headerWidgets } from './header-widgets.ts';
import classes from './layout.module.css';
import { LanguageMenu, ThemeToggle } from './ThemeAndLanguage.tsx';
import { TopLinks } from './TopLinks.tsx';
import { UserMenu } from './UserMenu.tsx';

interface TopBarProps {
  mobile: boolean;
  drawerOpened: boolean;
  onBurger: () => void;
}

export function TopBar({ mobile, drawerOpened, onBurger }: TopBarProps) {
  const user = useStoredUser();
  return (
    <div className={classes.header}>
      <Burger opened={drawerOpened} onClick={onBurger} hiddenFrom="sm" size="sm" aria-label="menu" />
      <Brand compact={mobile} />
      <TopLinks />
      <Group gap={4} ml="auto" wrap="nowrap">
        {headerWidgets
          .filter((w) => !w.signedInOnly || user)
          .map((w) => (
            <w.component key={w.key} />
          ))}
        <ThemeToggle />
        <LanguageMenu />
        <UserMenu mobile={mobile} />
      </Group>
    </div>
  );
}
