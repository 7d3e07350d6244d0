import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { REDIRECT_PREFIX } from '../routes';

/**
 * /redirect/{fullPath}: a tab refresh comes here and goes straight back, so the page is
 * mounted afresh.
 */
export function RedirectPage() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const target = location.pathname.slice(REDIRECT_PREFIX.length) || '/';
    void navigate(`${target}${location.search}${location.hash}`, { replace: true });
  }, [location, navigate]);
  return null;
}
