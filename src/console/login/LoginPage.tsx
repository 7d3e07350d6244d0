import {
  Button,
  Callout,
  Card,
  Classes,
  Elevation,
  FormGroup,
  H3,
  InputGroup,
  Intent,
} from '@blueprintjs/core';
import { LockIcon, ShieldIcon, UserIcon } from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { fetchCaptcha } from '../../api/endpoints';
import { safeRedirect } from '../guard';
import { BrandMark } from '../layout/BrandMark';
import { LanguageMenu } from '../layout/Navbar';
import { useStores } from '../useStores';
import { Captcha } from './Captcha';
import {
  validateLoginField,
  type LoginField,
  type LoginFieldError,
  type LoginForm,
} from './loginForm';

const FIELDS: readonly LoginField[] = ['username', 'password', 'code'];

/** /login: user name, password and captcha. */
export const LoginPage = observer(function LoginPage() {
  const stores = useStores();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form, setForm] = useState<LoginForm>({ username: '', password: '', code: '' });
  const [errors, setErrors] = useState<Partial<Record<LoginField, LoginFieldError>>>({});
  const [captcha, setCaptcha] = useState<{ codeId: string; image: string } | null>(null);
  const [sending, setSending] = useState(false);

  const replaceCaptcha = useCallback(() => {
    fetchCaptcha(stores.api).then(
      (next) => setCaptcha(next),
      () => setCaptcha(null),
    );
    setForm((current) => ({ ...current, code: '' }));
  }, [stores.api]);

  useEffect(() => {
    replaceCaptcha();
    void stores.config.ensureLoaded();
  }, [replaceCaptcha, stores.config]);

  const check = (field: LoginField) => validateLoginField(field, form, true) ?? undefined;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = Object.fromEntries(
      FIELDS.map((field) => [field, check(field)]).filter(([, e]) => e),
    );
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    try {
      await stores.session.login({
        username: form.username,
        password: form.password,
        codeId: captcha?.codeId ?? '',
        code: form.code.trim(),
      });
      await navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The client showed the server's message for 5 s; a used captcha is spent.
      setSending(false);
      replaceCaptcha();
    }
  };

  const input = (
    field: LoginField,
    icon: React.JSX.Element,
    type: string,
    autoComplete: string,
  ) => {
    const error = errors[field];
    return (
      <FormGroup
        label={t(`login.${field}`)}
        labelFor={`login-${field}`}
        intent={error ? Intent.DANGER : Intent.NONE}
        helperText={error ? (error.params ? t(error.key, error.params) : t(error.key)) : undefined}
      >
        <InputGroup
          id={`login-${field}`}
          name={field}
          type={type}
          size="large"
          autoComplete={autoComplete}
          leftIcon={icon}
          intent={error ? Intent.DANGER : Intent.NONE}
          value={form[field]}
          onValueChange={(value) => setForm((current) => ({ ...current, [field]: value }))}
          onBlur={() => setErrors((current) => ({ ...current, [field]: check(field) }))}
        />
      </FormGroup>
    );
  };

  return (
    <div className="roost-login" data-testid="login-page">
      <div className="roost-login__language">
        <LanguageMenu />
      </div>
      <Card elevation={Elevation.FOUR} className="roost-login__card">
        <div className="roost-login__brand">
          <BrandMark logo="" alt={t('app.name')} />
          <span className="roost-login__product">{t('app.title')}</span>
        </div>
        <H3>{t('login.heading')}</H3>
        <p className={Classes.TEXT_MUTED}>{t('login.subtitle')}</p>
        <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="login-form">
          {input('username', <UserIcon />, 'text', 'username')}
          {input('password', <LockIcon />, 'password', 'current-password')}
          <FormGroup
            label={t('login.code')}
            labelFor="login-code"
            intent={errors.code ? Intent.DANGER : Intent.NONE}
            helperText={errors.code ? t(errors.code.key) : undefined}
          >
            <div className="roost-login__code">
              <InputGroup
                id="login-code"
                name="code"
                size="large"
                autoComplete="off"
                leftIcon={<ShieldIcon />}
                intent={errors.code ? Intent.DANGER : Intent.NONE}
                value={form.code}
                onValueChange={(value) => setForm((current) => ({ ...current, code: value }))}
                onBlur={() => setErrors((current) => ({ ...current, code: check('code') }))}
              />
              <Captcha image={captcha?.image ?? null} onReplace={replaceCaptcha} />
            </div>
          </FormGroup>
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            size="large"
            fill
            loading={sending}
            text={t('login.submit')}
          />
        </form>
        {stores.config.config?.demo && (
          <Callout
            intent={Intent.PRIMARY}
            compact
            className="roost-login__hint"
            data-testid="demo-hint"
          >
            {t('login.demoHint')}
          </Callout>
        )}
      </Card>
    </div>
  );
});
