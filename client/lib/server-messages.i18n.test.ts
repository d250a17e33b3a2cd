import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { type StoredNotice, storedMessageText } from '../../shared/stored-message.ts';
import { messages as en } from '../locales/en/server-messages.po';
import { messages as zh } from '../locales/zh/server-messages.po';
import { noticeInLanguage, storedMessageInLanguage } from './server-messages.ts';

/*
 * What the server wrote itself, shown in the console's language (issue 22): an inbox notice from
 * its stored messages, and a channel's auto-disable reason. An administrator's own words are
 * shown as written.
 */

const notice: StoredNotice = {
  title: { code: 'notice.channel_disabled_title', params: { name: 'Dead end', id: 7 } },
  content: {
    code: 'notice.channel_disabled',
    params: {
      name: 'Dead end',
      id: 7,
      time: '2026-11-24T10:00:00.000Z',
      reason: '请求上游失败：connect ECONNREFUSED 127.0.0.1:9',
    },
  },
};
// As the server stores it: the Chinese words, and the messages beside them.
const stored = { title: storedMessageText(notice.title), content: storedMessageText(notice.content), notice };

const activate = (lang: 'en' | 'zh') => i18n.loadAndActivate({ locale: lang, messages: lang === 'en' ? en : zh });

describe('server notices in the console language', () => {
  it('reads a stored notice in English, its reason translated too', () => {
    activate('en');
    expect(noticeInLanguage(stored)).toEqual({
      title: 'Channel Dead end (#7) was disabled automatically',
      content:
        'Channel **Dead end** (#7) was disabled automatically at 2026-11-24T10:00:00.000Z.\n\n' +
        'Reason: The request to the upstream failed: connect ECONNREFUSED 127.0.0.1:9',
    });
  });

  it('reads it in Chinese as the server wrote it', () => {
    activate('zh');
    expect(noticeInLanguage(stored)).toEqual({ title: stored.title, content: stored.content });
  });

  it('translates a notice written before notices were stored, never an administrator’s words', () => {
    activate('en');
    expect(noticeInLanguage({ title: stored.title, content: '用户不存在', notice: null })).toEqual({
      title: 'Channel Dead end (#7) was disabled automatically',
      content: '用户不存在',
    });
  });

  it('words a channel’s auto-disable reason and an update notice', () => {
    activate('en');
    expect(
      storedMessageInLanguage({ code: 'channel.test_too_slow', params: { seconds: '12.50', threshold: 10 } }),
    ).toBe('Response time 12.50s is over the threshold of 10s');
    expect(
      storedMessageInLanguage({
        code: 'notice.update',
        params: { current: 'v1.4.0', latest: 'v1.5.0', url: 'https://example.com/r', notes: '' },
      }),
    ).toBe('Running v1.4.0, latest release [v1.5.0](https://example.com/r).');
  });
});
