import type { Command } from '../command'
import { agreementCommand } from './agreement-command'
import { compareCommand } from './compare-command'
import { copyAsCommand } from './copy-as-command'
import { evalCommand } from './eval-command'
import { judgeCommand } from './judge-command'
import { mergeWorkspaceCommand } from './merge-workspace-command'
import { parseCommand } from './parse-command'
import { serveCommand } from './serve-command'
import { testCommand } from './test-command'
import { urlCommand } from './url-command'

/** Every subcommand, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [urlCommand, parseCommand, serveCommand, testCommand, compareCommand, evalCommand, agreementCommand, judgeCommand, copyAsCommand, mergeWorkspaceCommand]
