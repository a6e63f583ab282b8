# MishGradV2 in CANN's toolkit layout: source this file (`source <prefix>/set_env.sh`), as
# CANN's own set_env.sh, to build and run CANN programs against this install. It finds
# the install from its own location, so the tree may be moved as a whole.
#   ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH   the install prefix
#   ASCEND_OPP_PATH                         <prefix>/opp
#   LD_LIBRARY_PATH                         <prefix>/lib64 and the operator package's
#                                           <prefix>/opp/vendors/customize_nn/op_api/lib
#   PATH                                    <prefix>/bin, when present
# Where this file is: bash says (BASH_SOURCE), zsh too (%x); a POSIX sh that sources a file
# tells it nothing, so there the install prefix recorded at install time is used (moving
# the tree then needs bash or zsh, or ASCEND_HOME_PATH set by hand).
if [ -n "${BASH_SOURCE:-}" ]; then
    _mishgrad_env_file=${BASH_SOURCE[0]}
elif [ -n "${ZSH_VERSION:-}" ]; then
    eval '_mishgrad_env_file=${(%):-%x}'
else
    _mishgrad_env_file="@MISHGRAD_CANN_LAYOUT_PREFIX@/set_env.sh"
fi
_mishgrad_home=$(cd "$(dirname "$_mishgrad_env_file")" && pwd)
export ASCEND_TOOLKIT_HOME="$_mishgrad_home"
export ASCEND_HOME_PATH="$_mishgrad_home"
export ASCEND_OPP_PATH="$_mishgrad_home/opp"
export LD_LIBRARY_PATH="$_mishgrad_home/lib64:$_mishgrad_home/opp/vendors/customize_nn/op_api/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -d "$_mishgrad_home/bin" ]; then
    export PATH="$_mishgrad_home/bin${PATH:+:$PATH}"
fi
unset _mishgrad_env_file _mishgrad_home
