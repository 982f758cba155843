import { setAgreement } from '../../shared/relevance/set-agreement'
import { answerOnce } from '../jobs/thread-answer'
import { judgmentsOfColumns, type AgreementRequest } from './agreement-protocol'

/**
 * A worker thread that computes a set's agreement figures and disagreements
 * (electron.vite.config.ts: `rater-agreement`): at 200,000 judgments by 5
 * raters ~75 ms of work, kept off the event loop that answers the window.
 * One request, one answer.
 */
answerOnce('agreement-worker', (request: AgreementRequest) => setAgreement({ ...request, judgments: judgmentsOfColumns(request.judgments) }))
