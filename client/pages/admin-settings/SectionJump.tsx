import { useLingui } from '@lingui/react/macro';
import { Box, Select } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { type RefObject, useEffect, useState } from 'react';

interface SectionLink {
  value: string;
  label: string;
}

/** The sections (SectionFrame cards) inside `root`, by their anchor id and title. */
function sectionsIn(root: HTMLElement): SectionLink[] {
  return [...root.querySelectorAll<HTMLElement>('[data-settings-section]')].map((el) => ({
    value: el.id,
    label: el.querySelector('h4')?.textContent?.trim() || el.id,
  }));
}

const same = (a: SectionLink[], b: SectionLink[]) =>
  a.length === b.length && a.every((x, i) => x.value === b[i].value && x.label === b[i].label);

/**
 * "Jump to section" for the long settings tabs (issue 22): lists the section cards of the tab on
 * show, kept in view below the header while the page scrolls, and scrolls the chosen one to the top.
 */
export function SectionJump({ root }: { root: RefObject<HTMLElement | null> }) {
  const { t } = useLingui();
  const [sections, setSections] = useState<SectionLink[]>([]);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    // A link to a section (`?tab=other#section-monitoring`, from the channel form): scrolled to once it mounts.
    let target = decodeURIComponent(window.location.hash.slice(1));
    const read = () => {
      setSections((prev) => (same(prev, sectionsIn(el)) ? prev : sectionsIn(el)));
      const section = target ? document.getElementById(target) : null;
      if (section && el.contains(section)) {
        section.scrollIntoView({ block: 'start' });
        target = '';
      }
    };
    read();
    // Sections mount with the tab and some load later; a title can change with the language.
    const observer = new MutationObserver(read);
    observer.observe(el, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [root]);

  return (
    <Box
      pos="sticky"
      top="var(--app-shell-header-height, 60px)"
      py="xs"
      style={{ zIndex: 5, background: 'var(--mantine-color-body)' }}
    >
      <Select
        data-testid="section-jump"
        aria-label={t`Jump to section`}
        placeholder={t`Jump to section…`}
        leftSection={<IconListSearch size={16} />}
        data={sections}
        value={null}
        searchable
        w={{ base: '100%', sm: 320 }}
        onChange={(id) => {
          if (id) document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        }}
        comboboxProps={{ zIndex: 6 }}
      />
    </Box>
  );
}
