import { describe, expect, it } from 'vitest';
import { fillChatLink, firstEnabledKey, listChatLinks, pickChatLink } from './chat-link.ts';

describe('chat links', () => {
  const chats = [
    { NextChat: 'https://x/#/?settings={"key":"{key}","url":"{address}"}' },
    { Lobe: 'https://l?k={key}' },
  ];

  it('picks a link by index from the array or its JSON text', () => {
    expect(pickChatLink(chats, 1)).toEqual({ ok: true, name: 'Lobe', template: 'https://l?k={key}' });
    expect(pickChatLink(JSON.stringify(chats), 0)).toMatchObject({ ok: true, name: 'NextChat' });
    expect(pickChatLink('not json', 0)).toEqual({ ok: false });
    expect(pickChatLink(chats, 5)).toEqual({ ok: false });
    expect(pickChatLink({}, 0)).toEqual({ ok: false });
  });

  it('lists every usable link with its index in the saved list', () => {
    expect(listChatLinks(chats).map(({ index, name }) => ({ index, name }))).toEqual([
      { index: 0, name: 'NextChat' },
      { index: 1, name: 'Lobe' },
    ]);
    // A malformed entry is skipped; the ones after it keep their own index (the route's id).
    expect(listChatLinks([{ A: 'https://a' }, { B: '' }, 'x', { C: 'https://c' }]).map((e) => e.index)).toEqual([0, 3]);
    expect(listChatLinks(JSON.stringify(chats))).toHaveLength(2);
    expect(listChatLinks('not json')).toEqual([]);
    expect(listChatLinks([])).toEqual([]);
    expect(listChatLinks(undefined)).toEqual([]);
  });

  it('fills address and key', () => {
    expect(fillChatLink('https://l?k={key}&u={address}', 'https://gw.example', 'sk-abc')).toBe(
      'https://l?k=sk-abc&u=https%3A%2F%2Fgw.example',
    );
  });

  it('takes the first enabled token with sk-', () => {
    expect(
      firstEnabledKey([
        { key: 'a', status: 2 },
        { key: 'b', status: 1 },
      ]),
    ).toBe('sk-b');
    expect(firstEnabledKey([{ key: 'a', status: 2 }])).toBeNull();
    expect(firstEnabledKey(null)).toBeNull();
  });
});
