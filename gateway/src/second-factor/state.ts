/**
 * Where a session stands with the second factor (docs/product/second-factor.md). The claim travels
 * inside the signed session cookie, so deciding whether a request may pass costs no query:
 * - `s`: `verify` (a factor exists, not used yet), `enrol` (required, none yet) or `done`;
 * - `at`: when a factor was last used in this session (unix seconds), for step-up;
 * - `m`: the methods enrolled when the claim was made; `r`: recovery codes left then.
 * `m` and `r` are what the screens show; they may lag behind a change made in another browser. The
 * store stays the authority for every check of a code or passkey and for whether step-up must ask
 * (docs/adr/0073-step-up-decided-from-the-store.md): only `at`, which only this session can renew,
 * is taken from the claim.
 */
import {
  type SecondFactorMethod,
  type SecondFactorState,
  type SecondFactorStatus,
  STEP_UP_SECONDS,
} from '@wbs/shared/api/second-factor';
import { wibWallTime } from '@wbs/shared/handling-clock';

export type FactorClaim = {
  s: SecondFactorStatus;
  at: number | null;
  m: SecondFactorMethod[];
  r: number;
};

/** What the account has, as the store says. */
export type FactorSummary = { methods: SecondFactorMethod[]; recoveryCodesLeft: number };

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export function isRequired(requiredTypes: readonly number[], userTypeId: number): boolean {
  return requiredTypes.includes(userTypeId);
}

/** The claim right after a right password. */
export function claimAfterPassword(summary: FactorSummary, required: boolean): FactorClaim {
  const status: SecondFactorStatus = summary.methods.length > 0 ? 'verify' : required ? 'enrol' : 'done';
  return { s: status, at: null, m: summary.methods, r: summary.recoveryCodesLeft };
}

/** The claim right after a factor was used (or enrolled): a full session, step-up fresh. */
export function claimAfterFactor(summary: FactorSummary, at = nowSeconds()): FactorClaim {
  return { s: 'done', at, m: summary.methods, r: summary.recoveryCodesLeft };
}

/** The claim after the factors changed without a factor being used now (e.g. one removed). */
export function claimWithFactors(claim: FactorClaim, summary: FactorSummary): FactorClaim {
  return { ...claim, m: summary.methods, r: summary.recoveryCodesLeft };
}

/** Whether this session used a factor within STEP_UP_SECONDS: then step-up asks for nothing. */
export function factorIsRecent(claim: FactorClaim, now = nowSeconds()): boolean {
  return claim.at !== null && now - claim.at <= STEP_UP_SECONDS;
}

/**
 * Whether an action behind step-up must ask for a factor first: the account has one now (`methods`,
 * read from the store), and this session did not use one within STEP_UP_SECONDS. An account without
 * any (its type does not require one) has nothing to ask for: that is the operator's choice
 * (SECOND_FACTOR_TYPES).
 */
export function needsStepUp(
  methods: readonly SecondFactorMethod[],
  claim: FactorClaim,
  now = nowSeconds(),
): boolean {
  return methods.length > 0 && !factorIsRecent(claim, now);
}

export function presentState(claim: FactorClaim, required: boolean, now = nowSeconds()): SecondFactorState {
  const until = claim.at === null ? null : claim.at + STEP_UP_SECONDS;
  return {
    status: claim.s,
    required,
    methods: claim.m,
    recoveryCodesLeft: claim.r,
    stepUpUntil: until !== null && until > now && claim.m.length > 0 ? wibWallTime(until * 1000) : null,
  };
}
