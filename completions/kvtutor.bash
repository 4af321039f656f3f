# bash completion for kvtutor: commands, flags, lesson ids, model and GPU
# aliases. The lists come from the program itself when Tab is pressed
# (kvtutor --help, CMD --help, ask --list, models --json, gpus --json), so
# they follow the installed version and the learner's own lessons.

_kvtutor_run() {
  "$_kvtutor_prog" "$@" 2>/dev/null
}

_kvtutor_commands() {
  _kvtutor_run --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'
}

_kvtutor_flags() { # CMD, or none for the global flags
  _kvtutor_run ${1:+"$1"} --help | grep -oE -- '(^|[^A-Za-z0-9_-])--[a-z][a-z0-9-]*' |
    sed 's/^[^-]*//' | sort -u
}

_kvtutor_lessons() {
  _kvtutor_run ask --list | grep -E '^[A-Za-z0-9][A-Za-z0-9._-]*$'
}

_kvtutor_items() { # LESSON_ID: its item ids
  # under the lesson's id: its title, then one line an item, id first
  _kvtutor_run ask --list | awk -v l="$1" '/^[^ ]/ { on = ($1 == l); n = 0; next } on && n++ { print $1 }'
}

_kvtutor_models() {
  _kvtutor_run models --json | sed -n 's/^ *"\(alias\|id\)": *"\([^"]*\)".*/\2/p'
}

_kvtutor_gpus() {
  _kvtutor_run gpus --json | sed -n 's/^ *"aliases": *"\([^"]*\)".*/\1/p' | tr ',' '\n'
}

_kvtutor() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local _kvtutor_prog=${COMP_WORDS[0]} cmd="" i w
  local -a pos=()
  [[ $_kvtutor_prog == "~/"* ]] && _kvtutor_prog=$HOME/${_kvtutor_prog#"~/"}
  command -v "$_kvtutor_prog" >/dev/null 2>&1 || _kvtutor_prog=kvtutor

  # the command, and the positionals typed so far (flag values skipped)
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    case $w in
    --db | --lessons | --learner | --model | --gpu | --config | --out | --format | --mode | \
      --seed | --measured | --program | --timeout | --seq)
      ((i++)) ;;
    -*) ;;
    *) if [[ -z $cmd ]]; then cmd=$w; else pos+=("$w"); fi ;;
    esac
  done

  case $prev in
  --model) mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_models)" -- "$cur"); return ;;
  --gpu) mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_gpus)" -- "$cur"); return ;;
  --format) mapfile -t COMPREPLY < <(compgen -W "json csv" -- "$cur"); return ;;
  --mode) mapfile -t COMPREPLY < <(compgen -W "serve latency throughput" -- "$cur"); return ;;
  --lessons) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
  --db | --config | --out | --program) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_flags "$cmd")" -- "$cur")
    return
  fi
  case $cmd in
  "") mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_commands) open" -- "$cur") ;;
  open | reset)
    ((${#pos[@]} == 0)) && mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_lessons)" -- "$cur") ;;
  ask)
    if ((${#pos[@]} == 0)); then
      mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_lessons)" -- "$cur")
    elif ((${#pos[@]} == 1)); then
      mapfile -t COMPREPLY < <(compgen -W "$(_kvtutor_items "${pos[0]}")" -- "$cur")
    fi ;;
  config)
    if ((${#pos[@]} == 0)); then
      mapfile -t COMPREPLY < <(compgen -W "get set list" -- "$cur")
    elif ((${#pos[@]} == 1)) && [[ ${pos[0]} != list ]]; then
      mapfile -t COMPREPLY < <(compgen -W "learner desired_retention new_per_day" -- "$cur")
    fi ;;
  fsrs) ((${#pos[@]} == 0)) && mapfile -t COMPREPLY < <(compgen -W "replay" -- "$cur") ;;
  lint) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
  explain-log | import)
    ((${#pos[@]} == 0)) && mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
  esac
  return 0
}
complete -F _kvtutor kvtutor
