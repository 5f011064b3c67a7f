/**
 * Safe transfer's content: the Received and Sent boxes (`box` and `page` in the address), the
 * downloads (asking a received protected transfer's passphrase once per page visit; the sender is never
 * asked), withdrawal and "New transfer".
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from '@portal/shared/web/router';
import { useDispatch } from '@portal/shared/web/store';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Empty, Flex, Pagination, PlusOutlined, Skeleton, Tabs } from '@portal/shared/ui/extra';
import type { Transfer, TransferFile } from '@portal/shared/core/files';
import { errorMessage } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { downloadFile } from '../../../app/download';
import { transfersApi } from '../../../app/transfers-api';
import { UploadError } from '../../../app/upload';
import { NewTransferModal } from './new-transfer-modal';
import { PassphraseModal } from './passphrase-modal';
import { TransferCard, type TransferBox } from './transfer-card';

const PAGE_SIZE = 20;
const PASSPHRASE_CODES = new Set(['transfer_passphrase_incorrect', 'transfer_passphrase_required']);
/**
 * The api records a download when the browser fetches the signed link (/content), after the download
 * call returns: the list is asked again once more after this long, so "Downloaded by" shows it.
 */
export const DOWNLOAD_RECORDED_DELAY_MS = 1500;

function pageOf(raw: string | null): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function TransfersView({ companyId }: { companyId: string }) {
  const [params, setParams] = useSearchParams();
  const box: TransferBox = params.get('box') === 'sent' ? 'sent' : 'received';
  const page = pageOf(params.get('page'));
  const list = transfersApi.useTransfersListQuery({ companyId, box, page, pageSize: PAGE_SIZE });
  const [withdraw] = transfersApi.useTransfersWithdrawMutation();
  const dispatch = useDispatch();
  const [composing, setComposing] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<{ transfer: Transfer; file: TransferFile } | null>(null);
  // Passphrases that worked, per transfer, for this visit only (never stored).
  const [passphrases, setPassphrases] = useState<Record<string, string>>({});

  const go = (next: { box?: TransferBox; page?: number }) =>
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      const nextBox = next.box ?? box;
      if (nextBox === 'sent') out.set('box', 'sent');
      else out.delete('box');
      const nextPage = next.box !== undefined ? 1 : (next.page ?? page);
      if (nextPage > 1) out.set('page', String(nextPage));
      else out.delete('page');
      return out;
    });

  const refreshTimers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const timers = refreshTimers.current;
    return () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    };
  }, []);
  const downloadsChanged = () => {
    dispatch(transfersApi.util.invalidateTags(['Transfers']));
    const timer = setTimeout(() => {
      refreshTimers.current.delete(timer);
      dispatch(transfersApi.util.invalidateTags(['Transfers']));
    }, DOWNLOAD_RECORDED_DELAY_MS);
    refreshTimers.current.add(timer);
  };

  const download = async (transfer: Transfer, file: TransferFile) => {
    // only a recipient is asked: the api lets the sender download their own transfer without it
    const asksPassphrase = box === 'received' && transfer.hasPassphrase;
    const passphrase = asksPassphrase ? passphrases[transfer.id] : undefined;
    if (asksPassphrase && !passphrase) {
      setPrompt({ transfer, file });
      return;
    }
    setDownloading(file.id);
    try {
      await downloadFile(file.id, passphrase ? { passphrase } : {});
      downloadsChanged();
    } catch (e) {
      if (asksPassphrase && e instanceof UploadError && e.code && PASSPHRASE_CODES.has(e.code)) {
        setPassphrases(({ [transfer.id]: _forgotten, ...rest }) => rest);
        setPrompt({ transfer, file });
      } else {
        publishToast({
          severity: 'error',
          summary: e instanceof UploadError ? e.message : `${file.name} could not be downloaded. Try again.`,
        });
      }
    } finally {
      setDownloading(null);
    }
  };

  const onWithdraw = async (transfer: Transfer) => {
    setWithdrawing(transfer.id);
    try {
      await withdraw(transfer.id).unwrap();
      publishToast({ severity: 'success', summary: 'The transfer was withdrawn' });
    } catch {
      // The shell's toast shows the api's reason.
    } finally {
      setWithdrawing(null);
    }
  };

  const onSent = (transfer: Transfer) => {
    setComposing(false);
    const count = transfer.recipients.length;
    publishToast({
      severity: 'success',
      summary: `Transfer sent to ${count} ${count === 1 ? 'recipient' : 'recipients'}`,
    });
    dispatch(transfersApi.util.invalidateTags(['Transfers']));
    go({ box: 'sent' });
  };

  const results = list.data?.results ?? [];
  let content;
  if (list.isError) {
    content = (
      <Alert
        type="error"
        showIcon
        title="The transfers could not be loaded"
        description={errorMessage(list.error) ?? 'Check your connection and try again.'}
        action={
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
            Retry
          </Button>
        }
      />
    );
  } else if (list.isLoading) {
    content = <Skeleton active aria-label="Loading transfers" />;
  } else if (results.length === 0) {
    content =
      page > 1 && (list.data?.total ?? 0) > 0 ? (
        <Empty description={`There is no page ${page}`}>
          <Button onClick={() => go({ page: 1 })}>Go to the first page</Button>
        </Empty>
      ) : (
        <Empty description={box === 'received' ? 'Nothing has been sent to you' : 'You have not sent anything yet'} />
      );
  } else {
    content = (
      <Flex vertical gap="middle" aria-busy={list.isFetching}>
        {results.map((t) => (
          <TransferCard
            key={t.id}
            transfer={t}
            box={box}
            downloading={downloading}
            withdrawing={withdrawing === t.id}
            onDownload={(transfer, file) => void download(transfer, file)}
            onWithdraw={(transfer) => void onWithdraw(transfer)}
          />
        ))}
        {(list.data?.total ?? 0) > PAGE_SIZE ? (
          <Pagination
            current={page}
            pageSize={PAGE_SIZE}
            total={list.data?.total ?? 0}
            showSizeChanger={false}
            onChange={(p) => go({ page: p })}
            style={{ alignSelf: 'flex-end' }}
          />
        ) : null}
      </Flex>
    );
  }

  return (
    <Flex vertical gap="small">
      {/* the button sits beside the tabs, not in their tab list (which may hold only tabs) */}
      <Flex align="center" justify="space-between" gap="middle">
        <Tabs
          style={{ flex: 1, minWidth: 0 }}
          activeKey={box}
          onChange={(key) => go({ box: key as TransferBox })}
          items={[
            { key: 'received', label: 'Received' },
            { key: 'sent', label: 'Sent' },
          ]}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setComposing(true)}>
          New transfer
        </Button>
      </Flex>
      {content}
      <NewTransferModal open={composing} companyId={companyId} onClose={() => setComposing(false)} onSent={onSent} />
      <PassphraseModal
        target={prompt}
        onClose={() => setPrompt(null)}
        onDownloaded={(transfer, passphrase) => {
          setPassphrases((known) => ({ ...known, [transfer.id]: passphrase }));
          downloadsChanged();
        }}
      />
    </Flex>
  );
}
