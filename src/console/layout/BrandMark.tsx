import { FeedIcon } from '@blueprintjs/icons';

export interface BrandMarkProps {
  /** The organisation's logo as base64 (GET /api/org/getLogo); the Roost mark when empty. */
  logo: string;
  /** Alternative text of the logo image. */
  alt: string;
}

/** The PNG signature (89 50 4E 47 0D 0A 1A 0A) as the first characters of its base64. */
const PNG_BASE64 = 'iVBORw0KGgo';

/**
 * The original console shows a non-empty logo as a JPEG data image; Roost accepts PNG logos
 * only, so a PNG is labelled as one (browsers sniff either way, but the type should say what
 * the bytes are).
 */
export function logoSource(logo: string): string {
  if (logo.startsWith('data:')) return logo;
  const type = logo.startsWith(PNG_BASE64) ? 'image/png' : 'image/jpeg';
  return `data:${type};base64,${logo}`;
}

/** The organisation's logo, or Roost's own mark when it has none. */
export function BrandMark({ logo, alt }: BrandMarkProps) {
  if (logo)
    return <img className="roost-logo" src={logoSource(logo)} alt={alt} data-testid="org-logo" />;
  return (
    <span className="roost-logo roost-logo--mark" aria-hidden>
      <FeedIcon size={16} />
    </span>
  );
}
