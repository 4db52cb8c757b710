/**
 * The gateway's retention routes (docs/product/retention.md): the periods per company, the disposal
 * register, the scan and the records of processing, one function each, so the three screens and the
 * landing banner make them alike.
 */
import { type ApiReply, api, type Query, read, withId } from '../../api/client.ts';

export type RetentionPeriods = ApiReply<'get', '/api/v1/retention-periods'>;
export type RetentionRow = RetentionPeriods['companies'][number];
export type DisposalPage = ApiReply<'get', '/api/v1/disposals'>;
export type DisposalItem = DisposalPage['items'][number];
export type DisposalSummary = ApiReply<'get', '/api/v1/disposals/summary'>;
export type ProcessingRecords = ApiReply<'get', '/api/v1/processing-records'>;
export type ProcessingActivity = ProcessingRecords['activities'][number];

/** The register's two lists: waiting (overdue ones included) and destroyed. */
export type RegisterFilter = 'waiting' | 'destroyed';

export const retentionPeriods = () => read('/api/v1/retention-periods');

export const setRetentionPeriod = (companyId: number, months: number) =>
  api.PUT('/api/v1/retention-periods/{id}', { ...withId(companyId), body: { months } });

export const resetRetentionPeriod = (companyId: number) =>
  api.DELETE('/api/v1/retention-periods/{id}', withId(companyId));

export const disposals = (state: RegisterFilter, page: number, size: number): Query<DisposalPage> =>
  read('/api/v1/disposals', { params: { query: { state, page: String(page), size: String(size) } } });

export const disposalSummary = () => read('/api/v1/disposals/summary');

export const markDestroyed = (id: number, note: string) =>
  api.POST('/api/v1/disposals/{id}/destroyed', { ...withId(id), body: note ? { note } : {} });

export const scanNow = () => api.POST('/api/v1/disposals/scan');

export const processingRecords = () => read('/api/v1/processing-records');
