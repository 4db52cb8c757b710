/** Waits until `check` holds (polled every 100 ms), for work the app does on its own: jobs, mails. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
