/**
 * The case list's query (Laporan): a POST with the filters in its body, because the complaint-number
 * filter must never appear in a URL. Its SWR key is [path, body]; reading or answering messages
 * refreshes every page of it (MessagesPanel: the rows carry the unread marks).
 */
import { type ApiBody, type ApiReply, api, type Query } from '../api/client.ts';

const CASE_SEARCH = '/api/v1/cases/search';

export type CaseSearch = ApiBody<'post', typeof CASE_SEARCH>;
export type CaseSearchReply = ApiReply<'post', typeof CASE_SEARCH>;

export const caseSearchQuery = (body: CaseSearch): Query<CaseSearchReply> => ({
  key: [CASE_SEARCH, body],
  load: () => api.POST(CASE_SEARCH, { body }),
});

export const isCaseSearchKey = (key: unknown): boolean => Array.isArray(key) && key[0] === CASE_SEARCH;
