
Ä
jit_hostileÕ
comp.2!
parameter.1	parameter˜(
fusion.2fusion ZkLoop˜°(
fusion.3fusion ZkLoop˜°(
fusion.4fusion ZkLoop˜°(
fusion.5fusion ZkLoop˜°(
fusion.6fusion ZkLoop˜°(
fusion.7fusion ZkLoop˜°(
fusion.8fusion ZkLoop˜°(
fusion.9fusion ZkLoop˜	°)
	fusion.10fusion 	ZkLoop˜
°)
	fusion.11fusion 
ZkLoop˜°(8Y
comp.1"
parameter.12	parameter˜)
	fusion.13fusion ZkLoop˜°((0