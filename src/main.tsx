import '@blueprintjs/core/lib/css/blueprint.css';
import './styles/console.css';
import './styles/layout.css';
import './styles/navbar.css';
import './styles/login.css';
import { BlueprintProvider, FocusStyleManager } from '@blueprintjs/core';
import { reaction } from 'mobx';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router-dom';
import { createConsoleRouter } from './console/router';
import { showErrorToast, showFlash } from './console/toaster';
import { StoresContext } from './console/useStores';
import { createI18n } from './i18n';
import { createStores } from './wiring';

// Focus rings for keyboard users only, not after every click.
FocusStyleManager.onlyShowFocusOnTabs();

const stores = createStores(() => i18n);
const i18n = createI18n(stores.ui.language);
reaction(
  () => stores.ui.language,
  (language) => void i18n.changeLanguage(language),
);

const router = createConsoleRouter({ stores, t: i18n.t, showError: showErrorToast });

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
createRoot(container).render(
  <StrictMode>
    <BlueprintProvider>
      <I18nextProvider i18n={i18n}>
        <StoresContext.Provider value={stores}>
          <RouterProvider router={router} />
        </StoresContext.Provider>
      </I18nextProvider>
    </BlueprintProvider>
  </StrictMode>,
);

// A message kept over a reload (a lost session) is shown on the page the user lands on.
showFlash();
