# fish completion for kvtutor: commands, flags, lesson ids, model and GPU
# aliases, read from the program itself when Tab is pressed.

function __kvtutor_run
    command kvtutor $argv 2>/dev/null
end

function __kvtutor_commands
    __kvtutor_run --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'
    echo open
end

function __kvtutor_flags
    # the flags of the command typed so far, or the global ones
    set -l cmd (commandline -opc)[2..-1]
    set -l sub
    for w in $cmd
        if not string match -q -- '-*' $w
            set sub $w
            break
        end
    end
    __kvtutor_run $sub --help | grep -oE -- '(^|[^A-Za-z0-9_-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u
end

function __kvtutor_lessons
    __kvtutor_run ask --list | grep -E '^[A-Za-z0-9][A-Za-z0-9._-]*$'
end

function __kvtutor_models
    __kvtutor_run models --json | sed -n 's/^ *"\(alias\|id\)": *"\([^"]*\)".*/\2/p'
end

function __kvtutor_gpus
    __kvtutor_run gpus --json | sed -n 's/^ *"aliases": *"\([^"]*\)".*/\1/p' | tr ',' '\n'
end

complete -c kvtutor -f
complete -c kvtutor -n __fish_use_subcommand -a '(__kvtutor_commands)'
complete -c kvtutor -n 'string match -q -- "-*" (commandline -ct)' -a '(__kvtutor_flags)'
complete -c kvtutor -n '__fish_seen_subcommand_from open reset ask' -a '(__kvtutor_lessons)'
complete -c kvtutor -n '__fish_seen_subcommand_from config' -a 'get set list learner desired_retention new_per_day'
complete -c kvtutor -n '__fish_seen_subcommand_from fsrs' -a replay
complete -c kvtutor -n '__fish_seen_subcommand_from lint explain-log import' -F
complete -c kvtutor -l model -x -a '(__kvtutor_models)'
complete -c kvtutor -l gpu -x -a '(__kvtutor_gpus)'
complete -c kvtutor -l format -x -a 'json csv'
complete -c kvtutor -l mode -x -a 'serve latency throughput'
complete -c kvtutor -l db -r -F
complete -c kvtutor -l config -r -F
complete -c kvtutor -l out -r -F
complete -c kvtutor -l program -r -F
complete -c kvtutor -l lessons -x -a '(__fish_complete_directories)'
