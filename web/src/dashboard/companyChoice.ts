/**
 * The company a partner user (types 3, 5) last chose, remembered per user name in localStorage
 * (spec sections 2 and 6). The dashboard and the case list share it, so a bar clicked on the
 * dashboard opens the case list of the same company.
 */
const companyKey = (username: string) => `wbs.company.${username}`;

/** The remembered company id, 0 when none (or when storage is unavailable). */
export function rememberedCompany(username: string): number {
  try {
    return Number(localStorage.getItem(companyKey(username))) || 0;
  } catch {
    return 0;
  }
}

export function rememberCompany(username: string, companyId: number): void {
  try {
    if (companyId > 0) localStorage.setItem(companyKey(username), String(companyId));
    else localStorage.removeItem(companyKey(username));
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}
