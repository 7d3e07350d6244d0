import { makeAutoObservable } from 'mobx';
import { type AlarmSeverity } from '../../contract/alarms';

/** Where the wall remembers which severities beep (per browser: each wall decides for itself). */
const STORAGE_KEY = 'roost.wall.sound';
/** Beeps per severity: the more, the graver. */
const BEEPS: Record<AlarmSeverity, number> = { critical: 3, major: 2, minor: 1 };
const BEEP_HZ: Record<AlarmSeverity, number> = { critical: 1_320, major: 990, minor: 660 };
/** One beep and the silence after it: short enough not to annoy, long enough to notice. */
const BEEP_S = 0.18;
const GAP_S = 0.12;
/** Several alarms in one batch beep once: a storm of alarms must not become a siren. */
const MIN_INTERVAL_MS = 2_000;

/**
 * The optional audible alert: off by default, switched on per severity by a click,
 * which is also the user gesture browsers require before a page may play sound.
 */
export class AlertSound {
  enabled: Record<AlarmSeverity, boolean> = { critical: false, major: false, minor: false };
  private context: AudioContext | null = null;
  private lastAt = 0;

  constructor(private readonly storage: Storage | null = globalThis.localStorage ?? null) {
    try {
      const saved = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? '{}') as Record<
        string,
        unknown
      >;
      for (const key of Object.keys(this.enabled) as AlarmSeverity[])
        this.enabled[key] = saved[key] === true;
    } catch {
      // A corrupt setting is the default: silent.
    }
    makeAutoObservable<AlertSound, 'context' | 'lastAt' | 'storage'>(this, {
      context: false,
      lastAt: false,
      storage: false,
    });
  }

  toggle(severity: AlarmSeverity): void {
    this.enabled[severity] = !this.enabled[severity];
    this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.enabled));
    if (this.enabled[severity]) void this.audio()?.resume();
  }

  play(severity: AlarmSeverity | null): void {
    if (!severity || !this.enabled[severity] || Date.now() - this.lastAt < MIN_INTERVAL_MS) return;
    const audio = this.audio();
    if (!audio || audio.state !== 'running') return;
    this.lastAt = Date.now();
    for (let i = 0; i < BEEPS[severity]; i++) {
      const start = audio.currentTime + i * (BEEP_S + GAP_S);
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = BEEP_HZ[severity];
      gain.gain.setValueAtTime(0.25, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + BEEP_S);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + BEEP_S);
    }
  }

  dispose(): void {
    void this.context?.close();
    this.context = null;
  }

  private audio(): AudioContext | null {
    if (!this.context && typeof AudioContext !== 'undefined') this.context = new AudioContext();
    return this.context;
  }
}
