import { useEffect, useRef, useState } from 'react';
import { Card, Classes, H5 } from '@blueprintjs/core';
import type Hls from 'hls.js';
import { useTranslation } from 'react-i18next';
import { API_BASE, type ApiClient } from '../../api/client';
import { isApiError } from '../../api/errors';
import { cameraSchema, type Camera } from '../../contract/cameras';
import { z } from 'zod';
import './cameras.css';

/** A stream that has not shown a frame in this long is "No video" (the reason says why). */
export const NO_VIDEO_MS = 6_000;

/** The player's module, fetched on first use (one request for all tiles, cached after). */
const loadHls = () => import('hls.js').then((module) => module.default);

type Reason = 'noAddress' | 'unreachable' | 'notFound' | 'refused' | 'timeout' | 'unsupported';

/**
 * The reason for a failed load, from the relay's status (server/devices/routes/cameraPlay.ts):
 * 404 the media gateway has no such stream, 403 it refused to give it, anything else (422: it
 * did not answer, or no answer at all) unreachable.
 */
function reasonOfStatus(status: number | undefined): Reason {
  if (status === 404) return 'notFound';
  if (status === 403) return 'refused';
  return 'unreachable';
}
type TileState = { kind: 'loading' } | { kind: 'playing' } | { kind: 'noVideo'; reason: Reason };

const listSchema = z.object({ rows: z.array(cameraSchema) });
/** A failed camera list is asked again after 2 s, then twice as long each time, up to a minute. */
const LIST_RETRY_FIRST_MS = 2_000;
const LIST_RETRY_MAX_MS = 60_000;

/** The camera's playlist, relayed through Roost (the only host the console may talk to). */
function playPath(camera: Camera): string | null {
  if (!camera.playUrl) return null;
  const file = new URL(camera.playUrl).pathname.split('/').pop() || 'index.m3u8';
  return `${API_BASE}/camera/play/${camera.id}/${file}`;
}

function CameraTile({ camera, api }: { camera: Camera; api: ApiClient }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [played, setState] = useState<TileState>({ kind: 'loading' });
  const src = playPath(camera);
  // A camera without an address is known to show nothing before anything is loaded.
  const state: TileState = src ? played : { kind: 'noVideo', reason: 'noAddress' };
  useEffect(() => {
    const element = video.current;
    if (!element || !src) return;
    let playing = false;
    let stopped = false;
    let hls: Hls | null = null;
    const fail = (reason: Reason) => {
      if (playing || stopped) return;
      setState({ kind: 'noVideo', reason });
      // A stream only slow to start keeps loading: its first frame still turns the tile to the
      // picture (an unattended wall would otherwise show "No video" until someone reloads).
      // An error the player cannot get past ends it.
      if (reason !== 'timeout') hls?.destroy();
    };
    // The timer runs from the start, so a player that cannot even be fetched is "No video" too.
    const timer = setTimeout(() => fail('timeout'), NO_VIDEO_MS);
    const onTime = () => {
      if (element.currentTime > 0 && !playing) {
        playing = true;
        clearTimeout(timer);
        setState({ kind: 'playing' });
      }
    };
    element.addEventListener('timeupdate', onTime);
    // hls.js (about 580 kB) is fetched only when a camera is played: a house without cameras,
    // or a page that shows none, never downloads it.
    void loadHls().then(
      (Player) => {
        if (stopped) return;
        // A browser without Media Source cannot play the stream.
        if (!Player.isSupported()) return fail('unsupported');
        const headers = api.authHeaders();
        const player = new Player({
          xhrSetup: (xhr) => {
            for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
          },
          manifestLoadingMaxRetry: 0,
          liveDurationInfinity: true,
        });
        hls = player;
        player.on(Player.Events.ERROR, (_event, data) => {
          if (data.fatal)
            fail(
              data.type === Player.ErrorTypes.NETWORK_ERROR
                ? reasonOfStatus(data.response?.code)
                : 'timeout',
            );
        });
        player.on(Player.Events.MANIFEST_PARSED, () => {
          void element.play().catch(() => undefined);
        });
        player.loadSource(src);
        player.attachMedia(element);
      },
      () => fail('unreachable'),
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
      element.removeEventListener('timeupdate', onTime);
      hls?.destroy();
    };
  }, [api, src]);
  return (
    <figure
      className="roost-camera"
      data-testid="camera-tile"
      data-camera-id={camera.id}
      data-state={state.kind}
    >
      <video
        ref={video}
        className="roost-camera__video"
        muted
        playsInline
        data-testid="camera-video"
      />
      {state.kind !== 'playing' && (
        <div className="roost-camera__cover" data-testid="camera-cover">
          {state.kind === 'loading' ? (
            <span className={Classes.TEXT_MUTED}>{t('devices.camera.connecting')}</span>
          ) : (
            <>
              <strong>{t('devices.camera.noVideo')}</strong>
              <span className={Classes.TEXT_MUTED} data-testid="camera-reason">
                {t(`devices.camera.reason.${state.reason}`)}
              </span>
            </>
          )}
        </div>
      )}
      <figcaption className="roost-camera__name">
        {camera.name}
        <span className={Classes.TEXT_MUTED}>{` · ${camera.houseName}`}</span>
      </figcaption>
    </figure>
  );
}

/**
 * The live view of a house's cameras (or several houses'), played with hls.js from the media
 * gateway through Roost. Nothing shows where no camera is set up.
 */
export function CameraGrid({ api, houseIds }: { api: ApiClient; houseIds: readonly number[] }) {
  const { t } = useTranslation();
  const [cameras, setCameras] = useState<Camera[]>([]);
  const key = houseIds.join(',');
  useEffect(() => {
    let cancelled = false;
    const wanted = new Set(key.split(',').map(Number));
    const query = wanted.size === 1 ? { houseId: [...wanted][0] } : undefined;
    // A wall runs unattended: a list that did not come (a restart, a timeout on a loaded
    // server) is asked again, sooner first, rather than leaving the cameras out until someone
    // reloads. A refusal (no right to see cameras) would only be refused again.
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = (failures: number) => {
      api
        .get('/camera/list', { query, schema: listSchema, quiet: () => true })
        .then((r) => !cancelled && setCameras(r.rows.filter((c) => wanted.has(c.houseId))))
        .catch((error: unknown) => {
          const passing = isApiError(error) && (error.status === null || error.status >= 500);
          if (cancelled || !passing) return;
          const wait = Math.min(LIST_RETRY_MAX_MS, LIST_RETRY_FIRST_MS * 2 ** failures);
          retry = setTimeout(() => load(failures + 1), wait);
        });
    };
    load(0);
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [api, key]);
  if (cameras.length === 0) return null;
  return (
    <Card className="roost-monitor__wide roost-cameras" data-testid="camera-grid">
      <H5>{t('devices.camera.title')}</H5>
      <div className="roost-cameras__grid">
        {cameras.map((c) => (
          <CameraTile key={c.id} camera={c} api={api} />
        ))}
      </div>
    </Card>
  );
}
