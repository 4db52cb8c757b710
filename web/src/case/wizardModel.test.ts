import { describe, expect, it } from 'vitest';
import {
  buildCaseForm,
  type FilerContext,
  hasTypedData,
  initialWizardState,
  stepOfField,
  validateStep,
  type WizardState,
} from './wizardModel.ts';

const guest: FilerContext = { signedIn: false, partnerUser: false };
const staff: FilerContext = { signedIn: true, partnerUser: false };
const partner: FilerContext = { signedIn: true, partnerUser: true };

const filled = (): WizardState => ({
  ...initialWizardState(),
  reporterType: 1,
  name: 'Budi',
  address: 'Jl. Merdeka 1',
  provinceId: 31,
  cityId: 3171,
  districtId: 317101,
  email: 'budi@example.com',
  phone: '+628123456',
  communicationTypes: [2, 0],
  communicationTime: 'Pagi',
  categoryId: 3,
  what: 'Suap',
  where: 'Kantor',
  when: 'Mei',
  perpetrator: 'X, Manajer',
  directorate: 'Keuangan',
  division: 'Pengadaan',
  how: 'Uang tunai',
  evidence: new File(['x'], 'bukti.pdf', { type: 'application/pdf' }),
  password: 'rahasia123',
  confirmPassword: 'rahasia123',
});

describe('wizard step validation', () => {
  it('step 0 (identified) requires type, name, address, region, email and phone', () => {
    const { errors } = validateStep(0, initialWizardState(), guest);
    expect(errors).toMatchObject({
      reporterType: 'Identitas Pelapor wajib diisi',
      address: 'Alamat wajib diisi',
      provinceId: 'Provinsi wajib diisi',
      cityId: 'Kota wajib diisi',
      districtId: 'Kecamatan wajib diisi',
      email: 'Alamat Email Tidak Valid',
      phone: 'Nomor Telepon tidak valid',
    });
    expect(errors.name).toBeDefined();
  });

  it('step 0 anonymous only checks type, email and phone', () => {
    const state = { ...initialWizardState(), anonymous: true, reporterType: 2, email: 'a@b.co', phone: '12' };
    expect(validateStep(0, state, guest).errors).toEqual({ phone: 'minimal 3 nomor.' });
  });

  it('step 1 needs one communication type and a time', () => {
    expect(validateStep(1, initialWizardState(), staff).errors).toEqual({
      communicationTypes: 'Cara Komunikasi wajib pilih minimal 1',
      communicationTime: 'Waktu Komunikasi wajib diisi',
    });
  });

  it('step 2 needs the category and the seven required answers; partner users need a company', () => {
    const { errors } = validateStep(2, initialWizardState(), partner);
    expect(errors).toMatchObject({
      companyId: 'Perusahaan wajib diisi',
      categoryId: 'Kategori pengaduan wajib diisi',
      what: 'Mohon isi kejadian apa yang ingin dilaporkan',
      how: 'Mohon isi bagaimana kejadian ini terjadi',
    });
    expect(validateStep(2, filled(), guest).errors).toEqual({});
  });

  it('step 3 needs the evidence file and, for guests, the case password', () => {
    const { errors } = validateStep(3, initialWizardState(), guest);
    expect(errors.evidence).toBe('Bukti Pendukung wajib diisi');
    expect(errors.password).toBe('Kata sandi pengaduan wajib diisi');
    const signedIn = validateStep(3, { ...initialWizardState(), evidence: filled().evidence }, staff);
    expect(signedIn.errors).toEqual({});
  });

  it('step 3 reports incomplete allegedly-involved rows as warnings with row numbers', () => {
    const state = {
      ...filled(),
      allegedlyInvolved: [
        { key: 'a', name: 'A', position: 'Staf', description: '' },
        { key: 'b', name: '', position: ' ', description: 'x' },
      ],
    };
    const result = validateStep(3, state, guest);
    expect(result.errors).toEqual({});
    expect(result.warnings).toEqual([
      'Nama pihak terkait wajib diisi di baris 2',
      'Posisi pihak terkait wajib diisi di baris 2',
    ]);
  });

  it('maps gateway field errors back to their step', () => {
    expect(stepOfField('districtId')).toBe(0);
    expect(stepOfField('communicationTime')).toBe(1);
    expect(stepOfField('perpetrator')).toBe(2);
    expect(stepOfField('evidence')).toBe(3);
  });
});

describe('case multipart body', () => {
  it('uses the contract field names; guests send the password and no channel', () => {
    const form = buildCaseForm(filled(), guest);
    expect(form.get('anonymous')).toBe('false');
    expect(form.get('communicationTypes')).toBe('0,2');
    expect(form.get('needsProtection')).toBe('true');
    expect(form.get('password')).toBe('rahasia123');
    expect(form.get('channelId')).toBeNull();
    expect(form.get('companyId')).toBeNull();
    expect(form.get('allegedlyInvolved')).toBe('[]');
    expect((form.get('evidence') as File).name).toBe('bukti.pdf');
  });

  it('anonymous reports send empty name and department and no location', () => {
    const form = buildCaseForm({ ...filled(), anonymous: true }, guest);
    expect(form.get('name')).toBe('');
    expect(form.get('department')).toBe('');
    expect(form.get('address')).toBeNull();
    expect(form.get('provinceId')).toBeNull();
  });

  it('signed-in filers send the channel and no password; partner users the company', () => {
    const form = buildCaseForm({ ...filled(), channelId: 4, companyId: 7 }, partner);
    expect(form.get('channelId')).toBe('4');
    expect(form.get('companyId')).toBe('7');
    expect(form.get('password')).toBeNull();
    expect(buildCaseForm(filled(), staff).get('companyId')).toBeNull();
  });
});

describe('typed data (leaving asks first)', () => {
  it('a blank wizard has none; any typed text, choice, file or row has some', () => {
    expect(hasTypedData(initialWizardState())).toBe(false);
    expect(hasTypedData({ ...initialWizardState(), name: '   ' })).toBe(false);
    for (const patch of [
      { what: 'x' },
      { anonymous: true },
      { reporterType: 1 },
      { communicationTypes: [0] },
      { needsProtection: false },
      { evidence: new File(['a'], 'a.pdf') },
      { allegedlyInvolved: [{ key: 'r', name: '', position: '', description: '' }] },
    ]) {
      expect(hasTypedData({ ...initialWizardState(), ...patch }), JSON.stringify(Object.keys(patch))).toBe(
        true,
      );
    }
  });
});
