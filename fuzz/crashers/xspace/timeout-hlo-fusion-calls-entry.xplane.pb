
Û/host:metadata"³®jit_hostile(1)*™2”
‘
jit_hostileý
comp.1!
parameter.1	parameter˜(
fusion.2fusion ZkLoop˜°(
fusion.3fusion ZkLoop˜°(
fusion.4fusion ZkLoop˜°(
fusion.5fusion ZkLoop˜°(
fusion.6fusion ZkLoop˜°(
fusion.7fusion ZkLoop˜°(
fusion.8fusion ZkLoop˜°(
fusion.9fusion ZkLoop˜	°((0*	Hlo Proto
ÿ/device:GPU:0"fusion.2"fusion.3"fusion.4"fusion.5"fusion.6"fusion.7"fusion.8"fusion.9*
hlo_module*
program_id³XLA Ops"#€­âÀ–±"*jit_hostile" "#€ÚÄ	À–±"*jit_hostile" "#€‡§À–±"*jit_hostile" "#€´‰À–±"*jit_hostile" "#€áëÀ–±"*jit_hostile" "#€ŽÎÀ–±"*jit_hostile" "#€»°!À–±"*jit_hostile" "#€è’&À–±"*jit_hostile" 