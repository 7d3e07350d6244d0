import { useTranslation } from 'react-i18next';

export interface CaptchaProps {
  /** The captcha image as a data: URL; null while none could be fetched. */
  image: string | null;
  /** Asks for a new code. */
  onReplace: () => void;
}

/** The captcha image, replaced on click. */
export function Captcha({ image, onReplace }: CaptchaProps) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="roost-captcha"
      onClick={onReplace}
      title={t('login.captchaReplace')}
      data-testid="captcha"
    >
      {image ? <img src={image} alt={t('login.captchaAlt')} /> : t('login.captchaUnavailable')}
    </button>
  );
}
