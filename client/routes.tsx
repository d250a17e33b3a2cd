import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type Params, useLocation, useParams } from 'react-router-dom';
import { AppLayout } from './layout/AppLayout.tsx';
import { RefusedRoute } from './layout/RefusedRoute.tsx';
import type { FirstQuery } from './first-screen.ts';
import { loginUrl, setNavigate } from './lib/navigation.ts';
import { firstChannelList } from './pages/admin-channels/first-query.ts';
import { useStatus } from './lib/status-context.tsx';
import { firstTokenList } from './pages/tokens/first-query.ts';
import { sessionExpired, useStoredUser, userIsAdmin, userIsRoot } from './lib/user.ts';

/** public: anyone; user: a stored signed-in user; admin: role >= 10 (others are sent to / with a toast saying why). */
/** `root`: site options are a super-administrator's (the option API is root-only, as in new-api). */
export type Guard = 'public' | 'user' | 'admin' | 'root';

export interface AppRoute {
  path: string;
  guard: Guard;
  page: LazyExoticComponent<ComponentType>;
  /** Fetches the page's code: started by client/first-screen.ts before React renders, for the page opened first. */
  load: () => Promise<unknown>;
  /** The page's first list, asked for with the page's code on a cold start (client/first-screen.ts). */
  firstQuery?: FirstQuery;
}

type PageModule = { default: ComponentType };
const lazyPage = (load: () => Promise<PageModule>) => ({ load, page: lazy(load) });

/**
 * The console's routes (spec console-screens §2.1). Each page is a default export in
 * client/pages/<name>/, loaded on first visit. Add a page by adding one line here
 * (and, for the sidebar, one item in layout/nav.ts).
 */
export const routeTable: AppRoute[] = [
  { path: '/', guard: 'public', ...lazyPage(() => import('./pages/home/HomePage.tsx')) },
  { path: '/about', guard: 'public', ...lazyPage(() => import('./pages/about/AboutPage.tsx')) },
  {
    path: '/admin/channels',
    guard: 'admin',
    ...lazyPage(() => import('./pages/admin-channels/ChannelsPage.tsx')),
    firstQuery: firstChannelList,
  },
  {
    path: '/app/tokens',
    guard: 'user',
    ...lazyPage(() => import('./pages/tokens/TokensPage.tsx')),
    firstQuery: firstTokenList,
  },
  { path: '/admin/coupons', guard: 'admin', ...lazyPage(() => import('./pages/admin-coupons/CouponsPage.tsx')) },
  {
    path: '/admin/subscriptions',
    guard: 'admin',
    ...lazyPage(() => import('./pages/admin-subscriptions/SubscriptionsPage.tsx')),
  },
  { path: '/admin/models', guard: 'admin', ...lazyPage(() => import('./pages/admin-models/ModelsPage.tsx')) },
  { path: '/app/wallet', guard: 'user', ...lazyPage(() => import('./pages/wallet/WalletPage.tsx')) },
  { path: '/app/wallet/topup-success', guard: 'user', ...lazyPage(() => import('./pages/wallet/SuccessPage.tsx')) },
  { path: '/setup', guard: 'public', ...lazyPage(() => import('./pages/setup/SetupPage.tsx')) },
  { path: '/login', guard: 'public', ...lazyPage(() => import('./pages/login/LoginPage.tsx')) },
  { path: '/register', guard: 'public', ...lazyPage(() => import('./pages/register/RegisterPage.tsx')) },
  { path: '/reset', guard: 'public', ...lazyPage(() => import('./pages/reset/ResetRequestPage.tsx')) },
  { path: '/user/reset', guard: 'public', ...lazyPage(() => import('./pages/reset/ResetConfirmPage.tsx')) },
  { path: '/oauth/:provider', guard: 'public', ...lazyPage(() => import('./pages/oauth/OAuthCallbackPage.tsx')) },
  { path: '/app/me', guard: 'user', ...lazyPage(() => import('./pages/me/MePage.tsx')) },
  { path: '/admin/users', guard: 'admin', ...lazyPage(() => import('./pages/admin-users/UsersPage.tsx')) },
  { path: '/admin/import', guard: 'root', ...lazyPage(() => import('./pages/admin-import/ImportPage.tsx')) },
  { path: '/admin/settings', guard: 'root', ...lazyPage(() => import('./pages/admin-settings/SettingsPage.tsx')) },
  {
    path: '/admin/messages',
    guard: 'admin',
    ...lazyPage(() => import('./pages/admin-messages/AdminMessagesPage.tsx')),
  },
  { path: '/pricing', guard: 'public', ...lazyPage(() => import('./pages/pricing/PricingPage.tsx')) },
  { path: '/chat/:id?', guard: 'public', ...lazyPage(() => import('./pages/chat/ChatPage.tsx')) },
  // The same chat page inside the console, beside the sidebar's Chat submenu (§2.2, §2.15).
  { path: '/app/chat/:id', guard: 'user', ...lazyPage(() => import('./pages/chat/ChatPage.tsx')) },
  { path: '/chat2link', guard: 'user', ...lazyPage(() => import('./pages/chat/Chat2LinkPage.tsx')) },
  { path: '/playground', guard: 'user', ...lazyPage(() => import('./pages/playground/PlaygroundPage.tsx')) },
  { path: '/app/dashboard', guard: 'user', ...lazyPage(() => import('./pages/dashboard/DashboardPage.tsx')) },
  { path: '/app/logs/api-usage', guard: 'user', ...lazyPage(() => import('./pages/logs-api-usage/ApiUsagePage.tsx')) },
  { path: '/app/logs/drawing', guard: 'user', ...lazyPage(() => import('./pages/logs-drawing/DrawingLogsPage.tsx')) },
  { path: '/app/logs/tasks', guard: 'user', ...lazyPage(() => import('./pages/logs-tasks/TaskLogsPage.tsx')) },
  { path: '/app/inbox/:id?', guard: 'user', ...lazyPage(() => import('./pages/inbox/InboxPage.tsx')) },
];

export interface RedirectRoute {
  path: string;
  to: (params: Params) => string;
}

const idParam = (params: Params) => encodeURIComponent(params.id ?? '');

/**
 * Spec §2.1 paths of panels that live on another page (one page per feature): each redirects
 * there with the parameter that page reads to open its panel (`?add=1`, `?edit=<id>`); the
 * target's own guard then applies (admin pages send others home with a toast, or send them to log in).
 */
export const redirectTable: RedirectRoute[] = [
  { path: '/channel/add', to: () => '/admin/channels?add=1' },
  { path: '/channel/edit/:id', to: (p) => `/admin/channels?edit=${idParam(p)}` },
  { path: '/user/edit', to: () => '/app/me' },
  { path: '/user/edit/:id', to: (p) => `/admin/users?edit=${idParam(p)}` },
];

function Redirect({ route }: { route: RedirectRoute }) {
  return <Navigate to={route.to(useParams())} replace />;
}

const NotFoundPage = lazy(() => import('./pages/not-found/NotFoundPage.tsx'));

/** Applies the setup redirect and the route's guard, then renders the page. */
function GuardedPage({ route }: { route: AppRoute }) {
  const status = useStatus();
  const user = useStoredUser();
  const location = useLocation();
  if (!status.setup && route.path !== '/setup') return <Navigate to="/setup" replace />;
  if (route.guard !== 'public' && !user)
    return <Navigate to={loginUrl(location.pathname + location.search, sessionExpired())} replace />;
  // Home, as the spec says, with a toast saying why (issues 22 and 31).
  if (route.guard === 'admin' && !userIsAdmin(user)) return <RefusedRoute />;
  if (route.guard === 'root' && !userIsRoot(user)) return <RefusedRoute rootOnly />;
  return <route.page />;
}

function NotFound() {
  const status = useStatus();
  if (!status.setup) return <Navigate to="/setup" replace />;
  return <NotFoundPage />;
}

export function createRouter() {
  const router = createBrowserRouter([
    {
      element: <AppLayout />,
      children: [
        ...routeTable.map((route) => ({ path: route.path, element: <GuardedPage route={route} /> })),
        ...redirectTable.map((route) => ({ path: route.path, element: <Redirect route={route} /> })),
        { path: '*', element: <NotFound /> },
      ],
    },
  ]);
  setNavigate((to, opts) => router.navigate(to, opts));
  return router;
}
