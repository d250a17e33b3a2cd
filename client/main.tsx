import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import 'mantine-datatable/styles.css';
import './global.css';
import { I18nProvider } from '@lingui/react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink } from '@trpc/client';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { startFirstScreen } from './first-screen.ts';
import { activateLanguage, i18n, storedLanguage } from './i18n.ts';
import { createQueryClient } from './lib/query-client.ts';
import { colorSchemeManager, theme } from './theme.ts';
import { trpc } from './trpc.ts';

const queryClient = createQueryClient();
const trpcClient = trpc.createClient({ links: [httpBatchLink({ url: '/trpc' })] });

// The status, the opened page's code and its first list are asked for while the catalog loads.
startFirstScreen(createTRPCQueryUtils({ client: trpcClient, queryClient }));
await activateLanguage(storedLanguage());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          {/* "auto" until the reader picks: the console follows the system's light or dark setting (issue 45). */}
          <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
            <ModalsProvider>
              {/* Bottom centre: never over the header's actions or a drawer's or modal's close button (issue 22). */}
              <Notifications position="bottom-center" autoClose={3500} limit={3} containerWidth={420} />
              <App />
            </ModalsProvider>
          </MantineProvider>
        </QueryClientProvider>
      </trpc.Provider>
    </I18nProvider>
  </StrictMode>,
);
