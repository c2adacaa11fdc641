# bash completion for perfbot: commands from `perfbot help`, each
# command's options from its --help (src/cmd/commands.h), so that it knows
# what the installed perfbot knows; an option's values where its --help
# lists them (--rule stat|lkp); files and folders otherwise.
_perfbot()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd="" i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--) COMPREPLY=(); return 0 ;;   # the benchmark's own arguments
		-*) ;;
		*) [ -n "$cmd" ] || cmd=${COMP_WORDS[i]} ;;
		esac
	done
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$(perfbot help 2>/dev/null |
			sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p') help" -- "$cur"))
		return 0
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$(perfbot help 2>/dev/null |
			sed -n 's/^   \([a-z][a-z-]*\) .*/\1/p')" -- "$cur"))
		return 0
	fi
	# an option whose --help lists its values ("--rule stat|lkp",
	# "--format text|html"): those values, not file names
	local prev=${COMP_WORDS[COMP_CWORD - 1]} values
	case $prev in
	--[a-z]*)
		values=$(perfbot "$cmd" --help 2>/dev/null |
			grep -o -- "$prev [a-z][a-z0-9-]*\(|[a-z][a-z0-9-]*\)\+" |
			sed 's/^[^ ]* //' | tr '|' '\n' | sort -u)
		if [ -n "$values" ]; then
			COMPREPLY=($(compgen -W "$values" -- "$cur"))
			return 0
		fi
		;;
	esac
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(perfbot "$cmd" --help 2>/dev/null |
			grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
	return 0
}
complete -o filenames -F _perfbot perfbot
