/**
 * Valibot schemas of the legacy API's reply shapes (spec sections 3 and 7, checked against
 * scripts/legacy-sim). Only the fields the gateway reads are listed; `v.object` drops the rest, so
 * nothing unknown is ever passed through. Loose where the legacy is loose (numbers as strings, nulls).
 */
import * as v from 'valibot';

/** A number the legacy may send as a numeric string. */
export const num = v.union([
  v.number(),
  v.pipe(
    v.string(),
    v.regex(/^-?\d+(\.\d+)?$/),
    v.transform((s) => Number(s)),
  ),
]);
export const optNum = v.optional(v.nullable(num), null);
export const optStr = v.optional(v.nullable(v.string()), null);

const messages = v.pipe(
  v.optional(v.nullable(v.union([v.array(v.nullable(v.string())), v.string()])), null),
  v.transform((m): string[] =>
    m === null ? [] : typeof m === 'string' ? [m] : m.filter((x): x is string => x !== null),
  ),
);

export const envelopeSchema = v.object({
  code: v.picklist([1, 0, -1]),
  message: messages,
  data: v.optional(v.unknown()),
});

export const tableEnvelopeSchema = v.object({
  code: v.picklist([1, 0, -1]),
  message: messages,
  data: v.optional(v.nullable(v.array(v.unknown()))),
  draw: v.optional(v.nullable(num)),
  recordsTotal: v.optional(v.nullable(num)),
  recordsFiltered: v.optional(v.nullable(num)),
});

/** Anything (for replies whose data we ignore, e.g. a mutation's `data: null`). */
export const ignored = v.optional(v.unknown());

// Users ------------------------------------------------------------------------------------------

export const wbsUserSchema = v.object({
  wbsUserId: num,
  wbsUserName: v.string(),
  wbsUserEmail: optStr,
  wbsUserUserTypeId: v.pipe(num, v.integer(), v.minValue(1), v.maxValue(6)),
  wbsUserUserType: v.optional(v.nullable(v.object({ userTypeName: optStr })), null),
  wbsUserRole: optNum,
  wbsUserInitPassword: optNum,
  partnerId: optNum,
  partnerStaffPartnerId: optNum,
  companyId: optNum,
  companyStaffCompanyId: optNum,
  whistleblowerId: optNum,
  whistleblowerCompanyId: optNum,
  // Present on some sub-objects (staff records carry their ids, names and case line).
  partnerStaffId: optNum,
  companyStaffId: optNum,
  companyStaffCaseLineId: optNum,
  partnerStaffFullName: optStr,
  companyStaffFullName: optStr,
  whistleblowerFullName: optStr,
  partnerName: optStr,
  companyName: optStr,
  wbsUserFullName: optStr,
});
export type LegacyUser = v.InferOutput<typeof wbsUserSchema>;

const withToken = v.object({ ...wbsUserSchema.entries, token: v.string() });

export const LOGIN_SUB_OBJECTS = [
  'companyWbsUser',
  'partnerWbsUser',
  'companyStaffWbsUser',
  'supportAgentWbsUser',
  'partnerStaffWbsUser',
  'whistleblowerWbsUser',
] as const;

/** Login data: `{ token, wbsUser }` (type 1) or exactly one `<kind>WbsUser` = user record + token. */
export const loginDataSchema = v.pipe(
  v.record(v.string(), v.unknown()),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const data = dataset.value;
    if (typeof data.token === 'string' && data.wbsUser) {
      const user = v.safeParse(wbsUserSchema, data.wbsUser);
      if (user.success) return { token: data.token, user: user.output };
      addIssue({ message: 'wbsUser has an unexpected shape' });
      return NEVER;
    }
    const present = LOGIN_SUB_OBJECTS.filter((k) => data[k]);
    if (present.length !== 1) {
      addIssue({ message: `expected one user sub-object, got ${present.length}` });
      return NEVER;
    }
    const parsed = v.safeParse(withToken, data[present[0]!]);
    if (!parsed.success) {
      addIssue({ message: `${present[0]} has an unexpected shape` });
      return NEVER;
    }
    const { token, ...user } = parsed.output;
    return { token, user };
  }),
);
export type LegacyLogin = { token: string; user: LegacyUser };

// Master data -----------------------------------------------------------------------------------

const nestedName = <K extends string>(key: K) =>
  v.optional(v.nullable(v.object({ [key]: optStr } as Record<K, typeof optStr>)), null);
const wbsUserRef = v.optional(
  v.nullable(
    v.object({
      wbsUserId: optNum,
      wbsUserName: optStr,
      wbsUserEmail: optStr,
      wbsUserRole: optNum,
      wbsUserRoleText: optStr,
      wbsUserPassword: optStr,
      wbsUserInitPassword: optNum,
    }),
  ),
  null,
);

export const partnerSchema = v.object({
  partnerId: num,
  partnerCode: optStr,
  partnerName: v.string(),
  partnerPhone: optStr,
  partnerAddress: optStr,
  partnerProvinceId: optNum,
  partnerCityId: optNum,
  partnerProvince: nestedName('provinceName'),
  partnerCity: nestedName('cityName'),
  partnerWbsUser: wbsUserRef,
});
export type LegacyPartner = v.InferOutput<typeof partnerSchema>;

export const companySchema = v.object({
  companyId: num,
  companyCode: optStr,
  companyName: v.string(),
  companyPhone: optStr,
  companyAddress: optStr,
  companyProvinceId: optNum,
  companyCityId: optNum,
  companyProvince: nestedName('provinceName'),
  companyCity: nestedName('cityName'),
  companyPartnerId: optNum,
  companyPartner: nestedName('partnerName'),
  companyWbsUser: wbsUserRef,
});
export type LegacyCompany = v.InferOutput<typeof companySchema>;

/** Drop-down rows; the legacy names them by entity (`partnerId/partnerName`, `companyId/companyName`). */
export const partnerOptionSchema = v.object({ partnerId: num, partnerName: v.string() });
export const companyOptionSchema = v.object({ companyId: num, companyName: v.string() });

export const partnerStaffSchema = v.object({
  partnerStaffId: num,
  partnerStaffPartnerId: optNum,
  partnerStaffFullName: v.string(),
  partnerStaffWbsUser: wbsUserRef,
});
export type LegacyPartnerStaff = v.InferOutput<typeof partnerStaffSchema>;

export const companyStaffSchema = v.object({
  companyStaffId: num,
  companyStaffCompanyId: optNum,
  companyStaffFullName: v.string(),
  companyStaffCaseLineId: optNum,
  companyStaffCaseLine: nestedName('caseLineName'),
  companyStaffWbsUser: wbsUserRef,
});
export type LegacyCompanyStaff = v.InferOutput<typeof companyStaffSchema>;

// Reference data --------------------------------------------------------------------------------

export const provinceSchema = v.object({ provinceId: num, provinceName: v.string() });
export const citySchema = v.object({ cityId: num, cityName: v.string() });
export const districtSchema = v.object({ districtId: num, districtName: v.string() });
export const unitSchema = v.object({ id: num, name: v.string() });
export const channelSchema = v.object({ channelId: num, channelName: v.string() });
export const caseLineSchema = v.object({ caseLineId: num, caseLineName: v.string() });
export const userRoleSchema = v.object({ id: num, text: v.string() });
export const caseStatusSchema = v.object({
  caseStatusId: num,
  caseStatusName: v.string(),
  caseStatusOrder: num,
});
export const caseCategoryGroupSchema = v.object({
  caseCategoryGroupId: num,
  caseCategoryGroupName: v.string(),
});
export const caseCategorySchema = v.object({
  caseCategoryId: num,
  caseCategoryName: v.string(),
  caseCategoryCaseCategoryGroupId: optNum,
  caseCategoryGroup: v.optional(v.nullable(v.object({ caseCategoryGroupName: optStr })), null),
  caseCategoryCaseCategoryGroup: v.optional(v.nullable(v.object({ caseCategoryGroupName: optStr })), null),
});

export const whistleblowerSchema = v.object({
  whistleblowerId: optNum,
  whistleblowerFullName: optStr,
  whistleblowerIsAnonymousBool: v.optional(v.nullable(v.boolean()), null),
});
