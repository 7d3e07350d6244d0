import { useEffect, useMemo, useState } from 'react';
import {
  Button,
  Callout,
  Collapse,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { ChevronDownIcon, ChevronRightIcon, DownloadIcon, SearchIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../stores/AdminFiles';
import { useStores } from '../../useStores';
import { notifyError } from '../parts/notify';
import { ScrollRegion } from '../../ScrollRegion';
import {
  matching,
  operationsOf,
  type ApiDocument,
  type ApiField,
  type ApiOperation,
} from './apiDocument';
import '../parts/admin.css';
import './api.css';

const METHOD_INTENT: Record<string, Intent> = {
  GET: Intent.PRIMARY,
  POST: Intent.SUCCESS,
  PUT: Intent.WARNING,
  PATCH: Intent.WARNING,
  DELETE: Intent.DANGER,
};

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; document: ApiDocument };

/** /system/api: the server's OpenAPI document, readable, for administrators and their integrators. */
export function ApiPage() {
  const { t } = useTranslation();
  const stores = useStores();
  const auth = { token: stores.session.token, locale: stores.ui.language };
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [text, setText] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    let live = true;
    const headers: Record<string, string> = { Locale: auth.locale };
    if (auth.token) headers['Authorization'] = `Bearer ${auth.token}`;
    fetch('/api/openapi.json', { headers, credentials: 'include' })
      .then(async (response) => {
        if (!response.ok) throw new Error(t('apiReference.failed'));
        const document = (await response.json()) as ApiDocument;
        if (live) setLoad({ state: 'ready', document });
      })
      .catch((error: unknown) => {
        if (live)
          setLoad({
            state: 'failed',
            message: error instanceof Error ? error.message : t('apiReference.failed'),
          });
      });
    return () => {
      live = false;
    };
  }, [auth.token, auth.locale, t]);

  const operations = useMemo(
    () => (load.state === 'ready' ? operationsOf(load.document) : []),
    [load],
  );
  const shown = useMemo(() => matching(operations, text), [operations, text]);
  const groups = useMemo(() => {
    const byTag = new Map<string, ApiOperation[]>();
    for (const op of shown) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
    return [...byTag];
  }, [shown]);

  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const download = () =>
    void downloadFile('/api/openapi.json', auth, 'openapi.json').catch(() =>
      notifyError(new Error(t('apiReference.failed'))),
    );

  return (
    <ScrollRegion className="roost-admin roost-api" label={t('route.apiReference')}>
      <p className="roost-api__intro">{t('apiReference.intro')}</p>
      <div className="roost-admin__bar">
        <InputGroup
          leftIcon={<SearchIcon />}
          placeholder={t('apiReference.searchPlaceholder')}
          aria-label={t('apiReference.search')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          className="roost-api__search"
        />
        <Button icon={<DownloadIcon />} onClick={download} text={t('apiReference.download')} />
        {load.state === 'ready' && (
          <span className="roost-api__count">
            {t('apiReference.count', { shown: shown.length, total: operations.length })}
          </span>
        )}
      </div>
      {load.state === 'loading' && (
        <NonIdealState icon={<Spinner size={24} />} title={t('apiReference.loading')} />
      )}
      {load.state === 'failed' && <Callout intent={Intent.DANGER}>{load.message}</Callout>}
      {load.state === 'ready' && shown.length === 0 && (
        <NonIdealState title={t('apiReference.none')} />
      )}
      {groups.map(([tag, ops]) => (
        <section key={tag} className="roost-admin__card roost-api__group" aria-label={tag}>
          <h3 className="roost-api__tag">{tag}</h3>
          {ops.map((op) => (
            <OperationRow
              key={op.id}
              op={op}
              open={open.has(op.id)}
              onToggle={() => toggle(op.id)}
            />
          ))}
        </section>
      ))}
    </ScrollRegion>
  );
}

function OperationRow({
  op,
  open,
  onToggle,
}: {
  op: ApiOperation;
  open: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="roost-api__op">
      <button type="button" className="roost-api__head" aria-expanded={open} onClick={onToggle}>
        {open ? <ChevronDownIcon /> : <ChevronRightIcon />}
        <Tag minimal intent={METHOD_INTENT[op.method] ?? Intent.NONE} className="roost-api__method">
          {op.method}
        </Tag>
        <code className="roost-api__path">{op.path}</code>
        <span className="roost-api__summary">{op.summary}</span>
      </button>
      <Collapse isOpen={open}>
        <div className="roost-api__detail">
          <div className="roost-api__who">
            {op.roles === null ? (
              <Tag minimal>{t('apiReference.open')}</Tag>
            ) : (
              op.roles.map((role) => (
                <Tag key={role} minimal>
                  {t(`admin.user.roles.${role}`, { defaultValue: role })}
                </Tag>
              ))
            )}
            {op.operating && (
              <Tag minimal intent={Intent.WARNING} title={t('apiReference.operatingHint')}>
                {t('apiReference.operating')}
              </Tag>
            )}
          </div>
          {op.parameters.length > 0 && (
            <Fields title={t('apiReference.parameters')} fields={op.parameters} />
          )}
          {op.body.length > 0 && <Fields title={t('apiReference.body')} fields={op.body} />}
          {op.files.length > 0 ? (
            <p>{t('apiReference.file', { types: op.files.join(', ') })}</p>
          ) : op.answer.length > 0 ? (
            <Fields title={t('apiReference.answer')} fields={op.answer} />
          ) : (
            <p>{t('apiReference.answerNull')}</p>
          )}
        </div>
      </Collapse>
    </div>
  );
}

function Fields({ title, fields }: { title: string; fields: readonly ApiField[] }) {
  const { t } = useTranslation();
  return (
    <>
      <h4 className="roost-api__part">{title}</h4>
      <div className="roost-api__table">
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{t('apiReference.columns.name')}</th>
              <th>{t('apiReference.columns.type')}</th>
              <th>{t('apiReference.columns.required')}</th>
              <th>{t('apiReference.columns.limits')}</th>
              <th>{t('apiReference.columns.description')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.name}>
                <td>
                  <code>{f.name}</code>
                </td>
                <td>
                  <code>{f.type}</code>
                </td>
                <td>{f.required ? t('apiReference.yes') : t('apiReference.no')}</td>
                <td>{f.limits}</td>
                <td>{f.description}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </>
  );
}
