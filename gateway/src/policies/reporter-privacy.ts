/**
 * Whether the signed-in pelapor (type 6) who filed a case chose "Sembunyikan identitas? Ya" on its
 * profile (spec §2 "User profile"; legacy `whistleblowerIsAnonymousBool`). The case itself does not
 * carry the choice (its nested `caseWhistleblower` holds only the name), so it is read from the
 * pelapor's own record, `POST /WhistleblowerMaster/Detail`, at every read: a change of mind applies
 * at once to every case, old and new. Cases filed by guests or staff have no pelapor and nothing to ask.
 * Fails closed: a record that cannot be read counts as hidden (docs/product/privacy.md#contact-masking).
 */
import { reporterProfile } from '../legacy/accounts.ts';
import type { LegacyCase } from '../legacy/case-schemas.ts';
import type { Caller } from './caller.ts';

export async function pelaporHidesIdentity(caller: Caller, legacyCase: LegacyCase): Promise<boolean> {
  const whistleblowerId = legacyCase.caseWhistleblowerId;
  if (!whistleblowerId || whistleblowerId <= 0) return false;
  try {
    const profile = await reporterProfile(caller.legacy, {
      whistleblowerId,
      whistleblowerCompanyId: legacyCase.caseCompanyId,
    });
    return profile.whistleblowerIsAnonymousBool !== false;
  } catch (error) {
    caller.log.warn(
      { call: 'WhistleblowerMaster.detail', error: error instanceof Error ? error.name : 'unknown' },
      'pelapor privacy choice unreadable, identity withheld',
    );
    return true;
  }
}
