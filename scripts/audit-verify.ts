/** `pnpm audit:verify`: checks the gateway store's hash-chained audit trail (gateway/src/audit/verify.ts). */
import { runAuditVerify } from '../gateway/src/audit/verify.ts';

process.exitCode = await runAuditVerify(process.env, (line) => console.log(line));
