import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  analystSchema,
  caseLogSchema,
  changePasswordSchema,
  companySchema,
  fieldErrors,
  loginSchema,
  problemDetailOf,
  wizardStep0Schema,
  wizardStep1Schema,
  wizardStep2Schema,
} from './forms.ts';
import { FIELD_MESSAGES as M, PROBLEM_MESSAGES as P } from './messages.ts';

const errorsOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? {} : fieldErrors(result.issues);
};

describe('form schemas speak the spec', () => {
  it('login', () => {
    expect(errorsOf(loginSchema, { username: ' ', password: '' })).toEqual({
      username: 'Username wajib diisi',
      password: 'Kata sandi wajib diisi',
    });
  });

  it('change password', () => {
    expect(
      errorsOf(changePasswordSchema, { oldPassword: 'x', newPassword: 'short', confirmNewPassword: 'short' }),
    ).toEqual({
      newPassword: 'Kata sandi baru minimal 8 karakter.',
      confirmNewPassword: 'Konfirmasi kata sandi baru minimal 8 karakter.',
    });
    expect(
      errorsOf(changePasswordSchema, {
        oldPassword: 'x',
        newPassword: 'abcdefgh',
        confirmNewPassword: 'abcdefgX',
      }),
    ).toEqual({ confirmNewPassword: 'Konfirmasi kata sandi baru tidak sama' });
  });

  it('company: province and city numeric and chosen, partner optional', () => {
    const base = { name: 'PDAM', username: 'u', email: 'a@b.co', phone: '0211', address: 'Jl. A' };
    expect(errorsOf(companySchema, { ...base, provinceId: 0, cityId: 'x' })).toEqual({
      provinceId: 'Provinsi wajib diisi',
      cityId: 'Kota Tidak Valid',
    });
    const ok = v.parse(companySchema, { ...base, provinceId: 3, cityId: 4 });
    expect(ok.partnerId).toBe(0);
  });

  it('analyst needs a case line', () => {
    expect(errorsOf(analystSchema, { fullName: 'A', username: 'a', email: 'a@b.co' })).toEqual({
      caseLineId: 'Jalur Pengaduan wajib diisi',
    });
  });

  it('activity log asks for a line only when routing', () => {
    expect(errorsOf(caseLogSchema(true), { statusId: 11, message: 'ok' })).toEqual({
      caseLineId: 'Jalur Otorisasi wajib diisi',
    });
    expect(errorsOf(caseLogSchema(false), { statusId: 0, message: '' })).toEqual({
      statusId: 'Status pengaduan wajib diisi',
      message: 'Catatan Aktivitas wajib diisi',
    });
  });

  it('wizard step 0: anonymous applies only type, email and phone', () => {
    expect(
      errorsOf(wizardStep0Schema, { anonymous: true, reporterType: 1, email: 'x@y.id', phone: '+62812' }),
    ).toEqual({});
    expect(
      errorsOf(wizardStep0Schema, { anonymous: true, reporterType: 0, email: 'bad', phone: '12a' }),
    ).toEqual({
      reporterType: 'Identitas Pelapor wajib diisi',
      email: 'Alamat Email Tidak Valid',
      phone: 'Nomor Telepon tidak valid',
    });
    const identified = errorsOf(wizardStep0Schema, {
      anonymous: false,
      reporterType: 1,
      name: 'Budi',
      address: 'Jl. B',
      email: 'b@c.id',
      phone: '12',
    });
    expect(identified).toEqual({
      provinceId: 'Provinsi wajib diisi',
      cityId: 'Kota wajib diisi',
      districtId: 'Kecamatan wajib diisi',
      phone: 'minimal 3 nomor.',
    });
  });

  it('wizard steps 1 and 2', () => {
    expect(errorsOf(wizardStep1Schema, { communicationTypes: [], communicationTime: '' })).toEqual({
      communicationTypes: 'Cara Komunikasi wajib pilih minimal 1',
      communicationTime: 'Waktu Komunikasi wajib diisi',
    });
    const errors = errorsOf(wizardStep2Schema, {
      categoryId: 0,
      what: 'x'.repeat(501),
      where: 'x'.repeat(256),
    });
    expect(errors.categoryId).toBe('Kategori pengaduan wajib diisi');
    expect(errors.what).toBe('Maksimal 500 Karakter');
    expect(errors.where).toBe('Maksimal 255 Karakter');
    expect(errors.when).toBe('Mohon isi kapan kejadian ini terjadi');
    expect(errors.how).toBe('Mohon isi bagaimana kejadian ini terjadi');
  });
});

describe("a validation problem's detail", () => {
  it("a date rule's fuller reason wins over the other fields", () => {
    expect(problemDetailOf({ search: M.max255, from: M.dateOutOfRange })).toBe(P.dateOutOfRange);
  });

  it('one field: its message; several: the fields by name, the first five and a count of the rest', () => {
    expect(problemDetailOf({ email: M.emailInvalid })).toBe('Email tidak valid');
    const seven = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => [k, M.max255]));
    expect(problemDetailOf(seven)).toBe('Terdapat 7 isian yang tidak valid: a, b, c, d, e, dan 2 lainnya');
    expect(problemDetailOf({})).toBeUndefined();
  });
});
