// The lessons panel: the list of lessons, and the current lesson's step with its text, its actions (load a
// manifest into the editor, run a kubectl command as the terminal would, or a scripted request sequence)
// and its check, read from the cluster every couple of seconds and shown as done / not yet with a hint.
// A lesson runs only on its own cluster (?cluster=lesson-<id>), made fresh when the lesson starts; the
// lesson and step are in the URL, so a reload resumes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { usePlaygroundStore } from '../../playground.js';
import { editorText } from '../../editor/state.js';
import { runKubectl } from '../../terminal/kubectl.js';
import { LESSONS, type CheckResult, type Lesson, type LessonAction, type LessonFetch } from '../../lessons/lessons.js';
import { leaveLessonSearch, lessonCluster, lessonSearch, readLessonLocation } from '../../lessons/location.js';
import { freshCluster } from '../../lessons/fresh-cluster.js';
import './lessons.css';

const SOURCE = 'lessons';
const CHECK_EVERY_MS = 1500;
/** The user's own cluster, to go back to when leaving a lesson. */
const HOME_KEY = 'kube-playground:lesson-home';

function currentCluster(): string {
  return new URLSearchParams(location.search).get('cluster') ?? 'default';
}

async function startLesson(lesson: Lesson): Promise<void> {
  const here = currentCluster();
  try {
    if (!here.startsWith('lesson-')) sessionStorage.setItem(HOME_KEY, here);
  } catch {
    // no storage: leaving goes to the default cluster
  }
  await freshCluster(lessonCluster(lesson.id));
  location.assign(`${location.pathname}${lessonSearch(location.search, lesson.id, 0)}`);
}

function leaveLesson(): void {
  let home = 'default';
  try {
    home = sessionStorage.getItem(HOME_KEY) ?? 'default';
  } catch {
    // default
  }
  location.assign(`${location.pathname}${leaveLessonSearch(location.search, home)}`);
}

export function Lessons() {
  const where = readLessonLocation(location.search);
  const [error, setError] = useState('');
  const start = (l: Lesson) => {
    setError('');
    startLesson(l).catch((err: unknown) => setError(`The lesson's cluster could not be made fresh: ${err instanceof Error ? err.message : String(err)}`));
  };
  return (
    <div className="lessons" data-testid="lessons">
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {where && where.inOwnCluster ? (
        <LessonView lesson={where.lesson} initialStep={where.step} onRestart={() => start(where.lesson)} />
      ) : (
        <>
          <p className="hint">
            Each lesson runs on a fresh cluster of its own (lesson-&lt;name&gt;); your cluster is left as it is.
          </p>
          <ul className="lesson-list" aria-label="Lessons">
            {LESSONS.map((l) => (
              <li key={l.id}>
                <h3>{l.title}</h3>
                <p>{l.summary}</p>
                <button type="button" onClick={() => start(l)} aria-label={`Start lesson: ${l.title}`}>
                  Start ({l.steps.length} steps)
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

interface Output {
  text: string;
  failed: boolean;
}

function LessonView({ lesson, initialStep, onRestart }: { lesson: Lesson; initialStep: number; onRestart: () => void }) {
  const store = usePlaygroundStore();
  const [step, setStep] = useState(initialStep);
  const [check, setCheck] = useState<CheckResult | undefined>();
  const [outputs, setOutputs] = useState<Record<number, Output>>({});
  const [busy, setBusy] = useState(false);
  const fetcher = useCallback<LessonFetch>((path, init) => store.fetch(path, init, SOURCE), [store]);
  const finished = step >= lesson.steps.length;
  const current = lesson.steps[step];
  const seq = useRef(0);

  const go = (n: number) => {
    setStep(n);
    setOutputs({});
    setCheck(undefined);
    history.replaceState(history.state, '', `${location.pathname}${lessonSearch(location.search, lesson.id, n)}${location.hash}`);
  };

  const runCheck = useCallback(async () => {
    if (!current) return;
    const mine = ++seq.current;
    try {
      const r = await current.check(fetcher);
      if (mine === seq.current) setCheck(r);
    } catch (err) {
      if (mine === seq.current) setCheck({ done: false, detail: `The check could not read the cluster: ${err instanceof Error ? err.message : String(err)}` });
    }
  }, [current, fetcher]);

  useEffect(() => {
    void runCheck();
    const t = setInterval(() => void runCheck(), CHECK_EVERY_MS);
    return () => clearInterval(t);
  }, [runCheck]);

  const act = async (i: number, a: LessonAction) => {
    if (a.kind === 'manifest') {
      editorText.set(a.text);
      setOutputs((o) => ({ ...o, [i]: { text: 'Loaded into the editor.', failed: false } }));
      return;
    }
    setBusy(true);
    try {
      if (a.kind === 'command') {
        const r = await runKubectl(a.line, { fetch: fetcher, namespace: 'default', editorText: () => editorText.get() });
        setOutputs((o) => ({ ...o, [i]: { text: `$ ${a.line}\n${r.stdout}${r.stderr}`, failed: r.code !== 0 } }));
      } else {
        const text = await a.run(fetcher);
        setOutputs((o) => ({ ...o, [i]: { text, failed: false } }));
      }
    } catch (err) {
      setOutputs((o) => ({ ...o, [i]: { text: err instanceof Error ? err.message : String(err), failed: true } }));
    } finally {
      setBusy(false);
      void runCheck();
    }
  };

  return (
    <section aria-labelledby="lesson-title" className="lesson">
      <div className="lesson-head">
        <h2 id="lesson-title">{lesson.title}</h2>
        <span className="hint" data-testid="lesson-progress">
          {finished ? 'Finished' : `Step ${step + 1} of ${lesson.steps.length}`}
        </span>
        <button type="button" onClick={onRestart} title="Start again on a fresh cluster">
          Restart
        </button>
        <button type="button" onClick={leaveLesson}>
          Leave lesson
        </button>
      </div>
      {finished || !current ? (
        <div data-testid="lesson-finished">
          <p role="status" className="lesson-done">
            Lesson finished: every step's check passed.
          </p>
          <button type="button" onClick={() => go(0)}>
            Back to step 1
          </button>
        </div>
      ) : (
        <div className="lesson-step" data-testid="lesson-step">
          <h3>
            {step + 1}. {current.title}
          </h3>
          {current.text.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          <ol className="lesson-actions">
            {current.actions.map((a, i) => (
              <li key={`${step}-${i}`}>
                {a.kind === 'manifest' ? (
                  <details>
                    <summary>
                      <button type="button" disabled={busy} onClick={() => void act(i, a)}>
                        Load manifest into the editor
                      </button>
                    </summary>
                    <pre>{a.text}</pre>
                  </details>
                ) : a.kind === 'command' ? (
                  <>
                    <code>{a.line}</code>{' '}
                    <button type="button" disabled={busy} onClick={() => void act(i, a)} aria-label={`Run ${a.line}`}>
                      Run
                    </button>
                  </>
                ) : (
                  <>
                    <span>{a.describe}</span>{' '}
                    <button type="button" disabled={busy} onClick={() => void act(i, a)}>
                      {a.label}
                    </button>
                  </>
                )}
                {outputs[i] && (
                  <pre className={outputs[i].failed ? 'lesson-output failed' : 'lesson-output'} data-testid="lesson-output">
                    {outputs[i].text}
                  </pre>
                )}
              </li>
            ))}
          </ol>
          <div className="lesson-check" data-testid="lesson-check" data-done={check?.done ? 'true' : 'false'} aria-live="polite">
            {check === undefined ? (
              <span className="hint">Checking the cluster…</span>
            ) : check.done ? (
              <strong className="lesson-done">Done</strong>
            ) : (
              <>
                <strong>Not yet</strong> <span>{current.hint}</span>
              </>
            )}
            {check && <div className="hint">{check.detail}</div>}
          </div>
          <div className="lesson-nav">
            <button type="button" disabled={step === 0} onClick={() => go(step - 1)}>
              Previous
            </button>
            <button type="button" className={check?.done ? 'primary' : undefined} onClick={() => go(step + 1)}>
              {check?.done ? 'Next step' : 'Skip step'}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
