import useSWR, { type SWRConfiguration } from 'swr';
import type { Query } from './client.ts';

/**
 * A typed GET through SWR: `useApi(read('/api/v1/case-statuses'))`. The reply type comes from the
 * API document; the cache key is the request's URL. null: nothing to load (yet).
 */
export function useApi<R>(query: Query<R> | null, config?: SWRConfiguration<R>) {
  return useSWR<R>(query?.key ?? null, query ? query.load : null, config);
}
