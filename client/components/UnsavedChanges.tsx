import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, List, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useBlocker } from 'react-router-dom';

/*
 * Staged edits that are not saved yet (issue 39): a form that keeps edits until its Save button
 * registers what it has changed with useUnsavedChanges; the provider around the page then
 * (1) asks before a console link, the back button or a tab change leaves the page (react-router's
 * blocker), (2) has the browser ask before a reload or closing the tab (beforeunload), and
 * (3) shows a sticky bar "N unsaved changes" naming what changed, with Save and Discard, that a
 * field scrolled into view never lands under.
 */

export interface UnsavedSource {
  /** What the edits belong to, e.g. a settings section's title. */
  title: ReactNode;
  /** What changed, one entry a model or a setting; empty when nothing is unsaved. */
  items: string[];
  /** Saves this source's edits; false (or a rejection) when they could not be saved. */
  save: () => Promise<boolean> | boolean;
  discard: () => void;
}

interface Registry {
  register: (id: string, source: UnsavedSource | null) => void;
}

const UnsavedContext = createContext<Registry | null>(null);

/** Items shown per source in the bar before "+N more". */
const SHOWN_ITEMS = 6;

/**
 * Registers a form's unsaved edits with the page's UnsavedChangesProvider (none: does nothing).
 * Only the items decide when the registration changes, so a form may pass new
 * save/discard functions on every render.
 */
export function useUnsavedChanges(source: UnsavedSource) {
  const registry = useContext(UnsavedContext);
  const id = useId();
  const latest = useRef(source);
  latest.current = source;
  const key = source.items.length > 0 ? JSON.stringify(source.items) : '';
  useEffect(() => {
    if (!registry) return;
    if (!key) {
      registry.register(id, null);
      return;
    }
    const { title, items } = latest.current;
    registry.register(id, {
      title,
      items,
      save: () => latest.current.save(),
      discard: () => latest.current.discard(),
    });
  }, [registry, id, key]);
  useEffect(() => () => registry?.register(id, null), [registry, id]);
}

function SourceList({ sources }: { sources: [string, UnsavedSource][] }) {
  return (
    <List size="sm" spacing={2} data-testid="unsaved-list">
      {sources.map(([id, s]) => {
        const shown = s.items.slice(0, SHOWN_ITEMS).join(', ');
        const more = s.items.length - SHOWN_ITEMS;
        return (
          <List.Item key={id} style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600} size="sm">
              {s.title}
            </Text>
            {': '}
            {shown}
            {more > 0 && <Trans> and {more} more</Trans>}
          </List.Item>
        );
      })}
    </List>
  );
}

/** Wraps a page whose forms stage edits; see the file comment. */
export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const [sources, setSources] = useState<Map<string, UnsavedSource>>(() => new Map());
  const [saving, setSaving] = useState(false);
  const register = useCallback<Registry['register']>(
    (id, source) =>
      setSources((prev) => {
        if (!source && !prev.has(id)) return prev;
        const next = new Map(prev);
        if (source) next.set(id, source);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const registry = useMemo(() => ({ register }), [register]);
  const entries = [...sources.entries()];
  const list = entries.map(([, s]) => s);
  const count = list.reduce((n, s) => n + s.items.length, 0);

  // Any move to another address (path or query: the settings tabs live in ?tab=) would drop the edits.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      count > 0 &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  // The bar sticks to the bottom of the screen over the form: the page's scroll padding keeps a field
  // scrolled into view (Tab to it, a script scrolling to it) above the bar instead of under it.
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = bar.current;
    if (count === 0 || !el) return;
    const root = document.documentElement;
    const pad = () => {
      root.style.scrollPaddingBottom = `calc(${el.getBoundingClientRect().height}px + 2 * var(--mantine-spacing-sm))`;
    };
    pad();
    const observer = new ResizeObserver(pad);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.scrollPaddingBottom = '';
    };
  }, [count]);

  // The browser's own "Leave site?" question on reload, close or an address typed in.
  useEffect(() => {
    if (count === 0) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers need returnValue set to show the question.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [count]);

  const saveAll = async () => {
    setSaving(true);
    try {
      // One source after another, as each form's own Save would (each shows its own result).
      for (const s of list) await s.save();
    } finally {
      setSaving(false);
    }
  };
  const discardAll = () => {
    for (const s of list) s.discard();
  };

  return (
    <UnsavedContext.Provider value={registry}>
      {children}
      {count > 0 && (
        <Paper
          ref={bar}
          withBorder
          shadow="md"
          radius="md"
          p="sm"
          role="status"
          data-testid="unsaved-bar"
          style={{ position: 'sticky', bottom: 'var(--mantine-spacing-sm)', zIndex: 150 }}
        >
          <Group justify="space-between" align="flex-start" gap="sm">
            <Stack gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                <IconAlertTriangle size={18} color="var(--mantine-color-orange-6)" />
                <Text fw={700} size="sm">
                  <Plural value={count} one="# unsaved change" other="# unsaved changes" />
                </Text>
              </Group>
              <SourceList sources={entries} />
            </Stack>
            <Group gap="xs">
              <Button variant="default" onClick={discardAll} disabled={saving} data-testid="unsaved-discard">
                <Trans>Discard</Trans>
              </Button>
              <Button onClick={() => void saveAll()} loading={saving} data-testid="unsaved-save">
                <Trans>Save</Trans>
              </Button>
            </Group>
          </Group>
        </Paper>
      )}
      <Modal
        opened={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title={t`Leave without saving?`}
        data-testid="unsaved-confirm"
      >
        <Stack>
          <Text size="sm">
            <Plural
              value={count}
              one="# change on this page is not saved and will be lost:"
              other="# changes on this page are not saved and will be lost:"
            />
          </Text>
          <SourceList sources={entries} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => blocker.reset?.()} data-testid="unsaved-stay">
              <Trans>Stay on this page</Trans>
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()} data-testid="unsaved-leave">
              <Trans>Leave without saving</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </UnsavedContext.Provider>
  );
}
