/**
 * `app.secondFactors`: the policy (which user types must have a factor: SECOND_FACTOR_TYPES), the
 * relying party of passkeys (PUBLIC_URL), and the claim a session starts with after a right password
 * (in development, with DEMO_TOTP_SECRET, a demo account without a factor gets that secret first).
 * The routes of the step and of the user's own factors are in routes/second-factor and
 * routes/own-second-factors; the gate itself in policies/plugin.ts.
 */
import type { SecondFactorState } from '@wbs/shared/api/second-factor';
import type { User } from '@wbs/shared/api/session';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiProblem } from '../errors.ts';
import type { Session } from '../session/plugin.ts';
import { type RelyingParty, relyingParty } from './passkeys.ts';
import { claimAfterPassword, type FactorClaim, isRequired, presentState } from './state.ts';
import { type Account, giveDemoTotp, summaryOf } from './store.ts';

export type SecondFactors = {
  rp: RelyingParty;
  required(userTypeId: number): boolean;
  /** The claim of a session that starts now, after a right password (503 when the store is down). */
  claimForSignIn(user: User): Promise<FactorClaim>;
  state(session: Session): SecondFactorState;
};

declare module 'fastify' {
  interface FastifyInstance {
    secondFactors: SecondFactors;
  }
}

export const accountOf = (user: Pick<User, 'id' | 'username'>): Account => ({
  userId: user.id,
  username: user.username,
});

export const secondFactorPlugin = fp(
  async (app: FastifyInstance) => {
    const requiredTypes = app.config.secondFactorTypes;
    const required = (userTypeId: number) => isRequired(requiredTypes, userTypeId);
    app.decorate('secondFactors', {
      rp: relyingParty(app.config.publicUrl),
      required,
      async claimForSignIn(user) {
        let summary: Awaited<ReturnType<typeof summaryOf>>;
        try {
          const store = await app.store.open();
          summary = await summaryOf(store.db, accountOf(user));
          const demo = app.config.demoTotpSecret;
          if (demo && summary.methods.length === 0 && required(user.userTypeId)) {
            await giveDemoTotp(store, accountOf(user), demo);
            summary = await summaryOf(store.db, accountOf(user));
          }
        } catch (error) {
          // Without the store nobody can tell whether this account has a factor: no session at all.
          throw new ApiProblem('store-unavailable', { cause: error });
        }
        return claimAfterPassword(summary, required(user.userTypeId));
      },
      state: (session) => presentState(session.factor, required(session.user.userTypeId)),
    });
  },
  { name: 'wbs-second-factor', dependencies: ['wbs-store'] },
);
