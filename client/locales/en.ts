import type { Messages } from '@lingui/core';
import { mergeCatalogs } from '../lib/merge-catalogs.ts';

/*
 * Every English catalog, compiled into this one module (one file for the browser to fetch, not one per page)
 * and merged once when it loads.
 */
export const messages: Messages = mergeCatalogs(import.meta.glob<{ messages: Messages }>('./en/*.po', { eager: true }));
