import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  CloseButton,
  FileButton,
  Group,
  Progress,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconDatabaseImport, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { errorMessage, showError } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { ProgressCard } from './ProgressCard.tsx';
import { ReportCard } from './ReportCard.tsx';
import { formatBytes, uploadSqlite } from './upload.ts';

/** How often a running import's progress is asked for. */
const POLL_MS = 500;

/**
 * /admin/import (root only): brings a new-api or one-api database over (issue 42), from a pasted DSN or an
 * uploaded SQLite file. A dry run of the same source and options comes first; only then can the import run.
 */
export default function ImportPage() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [dsn, setDsn] = useState('');
  const [logs, setLogs] = useState(false);
  const [uploading, setUploading] = useState<number | null>(null);

  const status = trpc.importer.status.useQuery(undefined, {
    refetchInterval: (q) => (q.state.data?.job?.state === 'running' ? POLL_MS : false),
  });
  const start = trpc.importer.start.useMutation({
    onSuccess: () => void utils.importer.status.invalidate(),
    onError: showError,
  });
  const discard = trpc.importer.discardUpload.useMutation({
    onSuccess: () => void utils.importer.status.invalidate(),
    onError: showError,
  });

  const job = status.data?.job ?? null;
  const upload = status.data?.upload ?? null;
  const running = job?.state === 'running';
  const source = dsn.trim() || upload?.name || '';
  // The import unlocks after a clean dry run of this very source and options.
  const dryRunPassed =
    job !== null &&
    job.dryRun &&
    job.state === 'done' &&
    job.report?.balance.ok === true &&
    job.logs === logs &&
    (dsn.trim() ? job.source !== upload?.name : job.source === upload?.name);

  const onFile = async (file: File | null) => {
    if (!file) return;
    setUploading(0);
    try {
      await uploadSqlite(file, setUploading);
      setDsn('');
      await utils.importer.status.invalidate();
    } catch (err) {
      showError(err);
    } finally {
      setUploading(null);
    }
  };

  const run = (dryRun: boolean) => start.mutate({ dsn: dsn.trim(), dryRun, logs });
  const confirmImport = () =>
    modals.openConfirmModal({
      title: t`Import into this gateway?`,
      children: (
        <Text size="sm">
          <Trans>
            Rows are written by id: users, tokens, channels and the rest replace the rows with the same id here. Stop
            new-api first so nothing changes while it runs. Running it again changes nothing.
          </Trans>
        </Text>
      ),
      labels: { confirm: t`Import`, cancel: t`Cancel` },
      onConfirm: () => run(false),
    });

  return (
    <Page
      title={<Trans>Import from new-api</Trans>}
      description={
        <Trans>
          Bring users, tokens, channels, plans, subscriptions, two-factor and passkeys, and optionally logs over from a
          new-api or one-api database.
        </Trans>
      }
      maxWidth={960}
    >
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Textarea
            label={<Trans>Source database</Trans>}
            description={
              <Trans>
                new-api's SQL_DSN exactly as its .env holds it, a mysql:// or postgres:// URL, or the path of a SQLite
                file on this server
              </Trans>
            }
            placeholder="root:123456@tcp(localhost:3306)/new-api?parseTime=true"
            autosize
            minRows={1}
            maxRows={3}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={dsn}
            disabled={running}
            onChange={(e) => setDsn(e.currentTarget.value)}
            data-testid="import-dsn"
          />
          <Group gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed">
              <Trans>or</Trans>
            </Text>
            <FileButton onChange={(f) => void onFile(f)} accept=".db,.sqlite,.sqlite3,application/octet-stream">
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  size="xs"
                  leftSection={<IconUpload size={14} />}
                  loading={uploading !== null}
                  disabled={running}
                  data-testid="import-upload"
                >
                  <Trans>Upload a SQLite file</Trans>
                </Button>
              )}
            </FileButton>
            {upload && (
              <Group gap={4} wrap="nowrap" data-testid="import-uploaded">
                <Text size="sm" ff="monospace" truncate maw={220}>
                  {upload.name}
                </Text>
                <Text size="sm" c="dimmed">
                  ({formatBytes(upload.size)})
                </Text>
                <CloseButton
                  size="sm"
                  aria-label={t`Remove the uploaded file`}
                  disabled={running}
                  onClick={() => discard.mutate()}
                />
              </Group>
            )}
          </Group>
          {uploading !== null && <Progress value={uploading * 100} size="sm" aria-label={t`Uploading`} />}
          {upload && dsn.trim() && (
            <Text size="xs" c="dimmed">
              <Trans>The source database above is used; clear it to import the uploaded file.</Trans>
            </Text>
          )}
          <Checkbox
            label={<Trans>Include usage logs (can take long on millions of rows)</Trans>}
            checked={logs}
            disabled={running}
            onChange={(e) => setLogs(e.currentTarget.checked)}
          />
          <Group gap="xs">
            <Button
              variant="light"
              onClick={() => run(true)}
              disabled={!source || running}
              loading={start.isPending && start.variables?.dryRun}
              data-testid="import-dry-run"
            >
              <Trans>Dry run</Trans>
            </Button>
            <Button
              leftSection={<IconDatabaseImport size={16} />}
              onClick={confirmImport}
              disabled={!source || running || !dryRunPassed}
              loading={start.isPending && start.variables?.dryRun === false}
              data-testid="import-run"
            >
              <Trans>Import</Trans>
            </Button>
          </Group>
          {!dryRunPassed && source && !running && (
            <Text size="xs" c="dimmed">
              <Trans>Import unlocks after a dry run of this source whose balance check passes.</Trans>
            </Text>
          )}
        </Stack>
      </Card>

      {job && running && <ProgressCard job={job} />}
      {job?.state === 'failed' && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={t`The import stopped`}
          data-testid="import-error"
        >
          <Text size="sm">{job.error ? errorMessage(new Error(job.error)) : null}</Text>
          {!job.dryRun && (
            <Text size="sm" mt={4}>
              <Trans>Tables already finished stay imported; fix the cause and run it again.</Trans>
            </Text>
          )}
        </Alert>
      )}
      {job?.state === 'done' && job.report && (
        <>
          {!job.dryRun && (
            <Alert color="green" title={t`Import finished`}>
              <Text size="sm">
                <Trans>
                  Compare the report with new-api, then point your clients at this gateway. Restart other gateway
                  instances so their caches load the imported data.
                </Trans>
              </Text>
            </Alert>
          )}
          <ReportCard job={job} report={job.report} />
        </>
      )}
    </Page>
  );
}
