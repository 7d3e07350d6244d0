import { FeedIcon } from '@blueprintjs/icons';

export interface BrandMarkProps {
  /** The organisation's logo as base64 (GET /api/org/getLogo); the Roost mark when empty. */
  logo: string;
  /** Alternative text of the logo image. */
  alt: string;
}

/** Spec §7: a non-empty logo is shown as a JPEG data image. */
export function logoSource(logo: string): string {
  return logo.startsWith('data:') ? logo : `data:image/jpeg;base64,${logo}`;
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
