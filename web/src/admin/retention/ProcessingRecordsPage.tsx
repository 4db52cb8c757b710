/**
 * Catatan Pemrosesan Data: the records of processing the gateway builds from its running
 * configuration, one section per activity. Printable: Cetak opens the browser's print, and the
 * admin shell's header, menu and this page's button stay off the paper (`_print`).
 */
import { Box, Button, Flex, Heading, List, Stack, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import type { ReactNode } from 'react';
import { useApi } from '../../api/useApi.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { type ProcessingActivity, processingRecords } from './calls.ts';
import { RECORDS_TEXTS as T, wibTime } from './texts.ts';

function Entry(props: { term: string; children: ReactNode }) {
  return (
    <Box as="div" display={{ base: 'block', md: 'grid' }} gridTemplateColumns="14rem 1fr" gap="3" py="1.5">
      <Text as="dt" fontWeight="semibold">
        {props.term}
      </Text>
      <Box as="dd" ms="0">
        {props.children}
      </Box>
    </Box>
  );
}

function Items({ items }: { items: string[] }) {
  if (items.length === 0) return <Text>-</Text>;
  return (
    <List.Root ps="5">
      {items.map((item) => (
        <List.Item key={item}>{item}</List.Item>
      ))}
    </List.Root>
  );
}

function Activity({ activity, index }: { activity: ProcessingActivity; index: number }) {
  const id = `kegiatan-${index + 1}`;
  return (
    <Box
      as="section"
      aria-labelledby={id}
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '4', md: '5' }}
      css={{ breakInside: 'avoid' }}
      _print={{ borderWidth: '0', p: '0', pt: '4' }}
    >
      <Heading as="h2" size="lg" id={id} mb="2">
        {index + 1}. {activity.name}
      </Heading>
      <Box as="dl">
        <Entry term={T.purpose}>{activity.purpose}</Entry>
        <Entry term={T.subjects}>{activity.subjects}</Entry>
        <Entry term={T.dataCategories}>
          <Items items={activity.dataCategories} />
        </Entry>
        <Entry term={T.storedIn}>{activity.storedIn}</Entry>
        <Entry term={T.access}>
          <Items items={activity.access} />
        </Entry>
        <Entry term={T.retention}>{activity.retention}</Entry>
        <Entry term={T.legalBasis}>{activity.legalBasis}</Entry>
      </Box>
    </Box>
  );
}

export default function ProcessingRecordsPage() {
  const { data, error, isLoading } = useApi(processingRecords());
  return (
    <Stack gap="5" maxW="4xl">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl">
          {T.title}
        </Heading>
        <Button
          variant="outline"
          onClick={() => window.print()}
          disabled={!data}
          _print={{ display: 'none' }}
        >
          {T.print}
        </Button>
      </Flex>
      <Text color="fg.muted">{T.intro}</Text>
      {isLoading && <PageSpinner />}
      {error && !data && (
        <Text color="fg.muted" textAlign="center" py="6">
          {UI_MESSAGES.notFoundData}
        </Text>
      )}
      {data && (
        <>
          <Box as="dl">
            <Entry term={T.controller}>{data.controller}</Entry>
            <Entry term={T.generatedAt}>{wibTime(data.generatedAt)}</Entry>
          </Box>
          {data.activities.map((activity, index) => (
            <Activity key={activity.name} activity={activity} index={index} />
          ))}
        </>
      )}
    </Stack>
  );
}
