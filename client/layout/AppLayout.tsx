import { AppShell, Drawer, Divider, ScrollArea } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useStatus } from '../lib/status-context.tsx';
import { useStoredUser } from '../lib/user.ts';
import { Footer } from './Footer.tsx';
import { PageLoader } from './PageLoader.tsx';
import { sidebarHidden, visibleSidebar } from './nav.ts';
import { Sidebar, SidebarMenu } from './Sidebar.tsx';
import { TopBar } from './TopBar.tsx';
import { TopLinksStacked } from './TopLinks.tsx';
import classes from './layout.module.css';
import { sidebarWidth, useSidebarCollapsed } from './useSidebarCollapsed.ts';
import { useSubmenus } from './useSubmenus.ts';

/** Phones (spec: mobile layout at 600px or less). */
export const MOBILE_QUERY = '(max-width: 600px)';

/**
 * The console frame: top bar, collapsible sidebar (a drawer on small screens),
 * the routed page and the footer. The sidebar serves signed-in users, so it is
 * hidden for visitors as well as on home, chat and setup paths.
 */
export function AppLayout() {
  const { pathname } = useLocation();
  const user = useStoredUser();
  const status = useStatus();
  const mobile = useMediaQuery(MOBILE_QUERY) ?? false;
  const [collapsed, toggleCollapsed] = useSidebarCollapsed();
  const [drawerOpened, drawer] = useDisclosure(false);
  const withSidebar = !!user && !sidebarHidden(pathname);
  const sections = visibleSidebar({ status, user });
  const submenus = useSubmenus(sections, pathname);

  const closeDrawer = drawer.close;
  useEffect(() => closeDrawer(), [pathname, closeDrawer]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: sidebarWidth(collapsed, submenus.anyOpen),
        breakpoint: 'sm',
        collapsed: { mobile: true, desktop: !withSidebar },
      }}
      padding={0}
      transitionDuration={150}
    >
      <AppShell.Header>
        <TopBar mobile={mobile} drawerOpened={drawerOpened} onBurger={drawer.toggle} />
      </AppShell.Header>
      <AppShell.Navbar style={{ display: 'flex', flexDirection: 'column' }}>
        <Sidebar sections={sections} submenus={submenus} collapsed={collapsed} onToggle={toggleCollapsed} />
      </AppShell.Navbar>
      <Drawer opened={drawerOpened} onClose={drawer.close} size={260} padding="sm" title=" " hiddenFrom="sm">
        <ScrollArea h="calc(100vh - 80px)">
          <TopLinksStacked onNavigate={drawer.close} />
          {user && (
            <>
              <Divider my="sm" />
              <SidebarMenu sections={sections} submenus={submenus} collapsed={false} onNavigate={drawer.close} />
            </>
          )}
        </ScrollArea>
      </Drawer>
      <AppShell.Main className={classes.main}>
        <div className={classes.content}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </div>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
