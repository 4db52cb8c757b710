import { Box, Button, Container, Heading, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { reportButtonTarget, targetAfterLogin } from '@wbs/shared/landing';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

import { useSession } from '../api/session.ts';
import { subjectOf } from '../api/types.ts';

/** The hero's secondary buttons: white outline on the brand colour. */
const OUTLINE_ON_BRAND = {
  variant: 'outline',
  color: 'white',
  borderColor: 'white',
  _hover: { bg: 'whiteAlpha.200' },
} as const;

const PROCESS_STEPS = [
  'Pelapor menyampaikan laporan melalui menu Buat Laporan dengan mengisi identitas (boleh tanpa identitas), cara komunikasi, uraian dugaan pelanggaran, dan bukti pendukung.',
  'Setelah laporan tersimpan, pelapor menerima Nomor Pengaduan. Simpan nomor tersebut beserta kata sandi yang Anda buat.',
  'Tim pengelola WBS menelaah kelengkapan laporan dan meneruskannya ke jalur otorisasi yang berwenang.',
  'Laporan yang memenuhi syarat ditindaklanjuti dengan investigasi secara independen dan rahasia.',
  'Pelapor dapat memantau perkembangan status laporan kapan saja melalui menu Pantau Laporan.',
];

const FAQ = [
  {
    q: 'Apa itu Whistleblowing System (WBS)?',
    a: 'WBS adalah sarana untuk melaporkan dugaan pelanggaran, seperti korupsi, kecurangan, suap, gratifikasi, benturan kepentingan, atau pelanggaran kode etik, yang dilakukan oleh insan perusahaan di lingkungan grup perusahaan air minum.',
  },
  {
    q: 'Apakah satu laporan boleh berisi beberapa pelanggaran?',
    a: 'Tidak. Satu pengaduan sebaiknya hanya memuat satu dugaan pelanggaran. Jika Anda mengetahui beberapa pelanggaran, sampaikan masing-masing dalam pengaduan terpisah agar dapat ditangani dengan tepat.',
  },
  {
    q: 'Apakah saya harus mencantumkan identitas?',
    a: 'Tidak harus. Laporan dapat disampaikan secara anonim (pilih Tanpa Identitas) maupun dengan identitas. Identitas pelapor yang dicantumkan dijaga kerahasiaannya.',
  },
  {
    q: 'Mengapa saya perlu mencantumkan alamat, nomor telepon, atau email?',
    a: 'Pelapor disarankan mencantumkan alamat, nomor telepon, atau alamat email agar tim pengelola dapat menghubungi Anda bila memerlukan keterangan atau bukti tambahan. Informasi kontak tidak akan diungkapkan kepada pihak terlapor.',
  },
  {
    q: 'Bagaimana cara memantau laporan saya?',
    a: 'Buka menu Pantau Laporan, lalu masukkan Nomor Pengaduan dan kata sandi yang Anda buat saat mengirim laporan. Simpan keduanya dengan baik, karena tanpa keduanya laporan tidak dapat dipantau.',
  },
  {
    q: 'Bukti apa saja yang dapat saya lampirkan?',
    a: 'Dokumen, gambar, rekaman suara atau video (misalnya pdf, doc, xls, ppt, jpg, png, mp3, mp4) dengan ukuran maksimal 10 MB per file dan paling banyak 5 lampiran. Anda juga dapat mencantumkan tautan ke bukti pendukung.',
  },
];

export function LandingPage() {
  const { user } = useSession();
  const report = reportButtonTarget(subjectOf(user));
  return (
    <Container maxW="6xl">
      <Stack gap={{ base: '8', md: '12' }}>
        <Box
          as="section"
          id="home"
          aria-labelledby="home-title"
          bg="brand.solid"
          color="brand.contrast"
          rounded="xl"
          px={{ base: '5', md: '10' }}
          py={{ base: '8', md: '14' }}
        >
          <Stack gap="4" maxW="3xl">
            <Heading id="home-title" as="h1" size={{ base: '2xl', md: '4xl' }}>
              Whistleblowing System
            </Heading>
            <Text fontSize={{ base: 'md', md: 'lg' }}>
              Laporkan dugaan pelanggaran di lingkungan perusahaan secara aman dan rahasia. Identitas pelapor
              dilindungi, dan setiap laporan ditangani secara independen.
            </Text>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3" pt="2">
              <Button asChild size="lg" colorPalette="gray" variant="solid" bg="white" color="brand.700">
                <Link href={report}>Laporkan</Link>
              </Button>
              <Button asChild size="lg" {...OUTLINE_ON_BRAND}>
                <Link href="/admin/checkcase">Pantau Laporan</Link>
              </Button>
              <Button asChild size="lg" {...OUTLINE_ON_BRAND}>
                <Link href="/verifikasi-tanda-terima">Verifikasi Tanda Terima</Link>
              </Button>
              <Button asChild size="lg" variant="ghost" color="white" _hover={{ bg: 'whiteAlpha.200' }}>
                <Link href={user ? targetAfterLogin(user.userTypeId) : '/auth/login'}>
                  {user ? 'Dashboard' : 'Masuk'}
                </Link>
              </Button>
            </Stack>
          </Stack>
        </Box>

        <SimpleGrid as="section" aria-label="Tentang WBS" columns={{ base: 1, md: 3 }} gap="6">
          <InfoCard title="Latar Belakang">
            Sebagai penyedia layanan air minum bagi masyarakat, grup perusahaan berkomitmen menerapkan tata
            kelola perusahaan yang baik (Good Corporate Governance). Pelanggaran yang tidak terungkap dapat
            merugikan perusahaan, pelanggan, dan masyarakat. Karena itu disediakan saluran pelaporan yang aman
            bagi siapa pun yang mengetahui adanya dugaan pelanggaran.
          </InfoCard>
          <InfoCard title="Tujuan">
            Mendorong keberanian untuk melaporkan pelanggaran, mendeteksi dan mencegah kecurangan sejak dini,
            menumbuhkan budaya kerja yang jujur dan transparan, serta memberikan perlindungan kepada pelapor
            yang beriktikad baik.
          </InfoCard>
          <InfoCard title="Ruang Lingkup">
            Laporan yang dapat disampaikan meliputi korupsi, kecurangan (fraud), suap dan gratifikasi,
            benturan kepentingan, pencurian, penyalahgunaan wewenang, pelanggaran hukum dan peraturan
            perusahaan, serta pelanggaran kode etik oleh pegawai, pejabat, atau mitra perusahaan.
          </InfoCard>
        </SimpleGrid>

        <Box
          as="section"
          aria-labelledby="process-title"
          bg="bg.panel"
          rounded="xl"
          p={{ base: '5', md: '8' }}
          borderWidth="1px"
        >
          <Heading id="process-title" as="h2" size="xl" mb="4">
            Proses Pengaduan
          </Heading>
          <List.Root as="ol" gap="2" ps="5">
            {PROCESS_STEPS.map((step) => (
              <List.Item key={step}>{step}</List.Item>
            ))}
          </List.Root>
        </Box>

        <SimpleGrid as="section" aria-label="Perlindungan dan sanksi" columns={{ base: 1, md: 2 }} gap="6">
          <InfoCard title="Perlindungan dan Sanksi bagi Pelapor">
            Perusahaan menjamin kerahasiaan identitas pelapor dan isi laporan, serta melindungi pelapor yang
            beriktikad baik dari tindakan balasan seperti pemecatan, penurunan jabatan, intimidasi, atau
            diskriminasi. Sebaliknya, pelapor yang terbukti dengan sengaja menyampaikan laporan palsu atau
            fitnah dapat dikenai sanksi sesuai peraturan perusahaan dan ketentuan hukum yang berlaku.
          </InfoCard>
          <InfoCard title="Perlindungan dan Sanksi bagi Terlapor">
            Terlapor tetap diperlakukan berdasarkan asas praduga tak bersalah, diberi kesempatan menyampaikan
            klarifikasi, dan identitasnya dijaga selama proses penanganan. Terlapor yang terbukti melakukan
            pelanggaran dikenai sanksi sesuai peraturan perusahaan dan dapat diproses sesuai ketentuan hukum
            yang berlaku.
          </InfoCard>
        </SimpleGrid>

        <Box as="section" id="faq" aria-labelledby="faq-title">
          <Heading id="faq-title" as="h2" size="xl" mb="4">
            FAQ
          </Heading>
          <Stack gap="0" bg="bg.panel" rounded="xl" borderWidth="1px" divideY="1px">
            {FAQ.map((item) => (
              <Box as="details" key={item.q} px="4" py="3" css={{ '& summary': { cursor: 'pointer' } }}>
                <Box as="summary" fontWeight="semibold" py="1">
                  {item.q}
                </Box>
                <Text pt="2" pb="1" lineHeight="tall">
                  {item.a}
                </Text>
              </Box>
            ))}
          </Stack>
        </Box>
      </Stack>
    </Container>
  );
}

function InfoCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box bg="bg.panel" rounded="xl" p={{ base: '5', md: '6' }} borderWidth="1px">
      <Heading as="h2" size="lg" mb="3" color="brand.fg">
        {title}
      </Heading>
      <Text color="fg" lineHeight="tall">
        {children}
      </Text>
    </Box>
  );
}
