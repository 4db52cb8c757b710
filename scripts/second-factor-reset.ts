/** `pnpm second-factor:reset <username>`: an operator's reset of a locked-out account's second factors. */
import { runSecondFactorReset } from '../gateway/src/second-factor/operator.ts';

process.exitCode = await runSecondFactorReset(process.env, process.argv[2], (line) => console.log(line));
