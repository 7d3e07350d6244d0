import { createContext, useContext } from 'react';
import { type RootStore } from '../stores/RootStore';
import { type ConsoleRoute } from './routeTypes';

export type ConsoleStores = RootStore<ConsoleRoute>;

export const StoresContext = createContext<ConsoleStores | null>(null);

/** The console's stores (one RootStore); components read them through this hook only. */
export function useStores(): ConsoleStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores() needs a <StoresContext.Provider> above it');
  return stores;
}
