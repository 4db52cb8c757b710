/** What every route needs: the store, region data, token revocations and options. */
import type { Regions } from './seed/regions.ts';
import type { Store } from './store/store.ts';
import type { User } from './types.ts';

export type Ctx = {
  store: Store;
  regions: Regions;
  /** jti of tokens revoked by Logout. */
  revoked: Set<string>;
  tokenTtlSeconds: number;
  sign(user: User): string;
};

declare module 'fastify' {
  interface FastifyRequest {
    wbsUser: User | null;
    tokenJti: string | null;
  }
  interface FastifyContextConfig {
    /** Needs no token (a valid token is still read when present). */
    public?: boolean;
    /** Allowed for a user who still has an initial password. */
    initAllowed?: boolean;
  }
}
