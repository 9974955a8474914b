
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
fusion.9fusion ZkLoop˜	°((0